/** Stops the shared stacks once every story of the run is done (jest.shared-stacks.setup.ts). */
export default async function sharedStacksTeardown(): Promise<void> {
  await globalThis.sharedStackHost?.close();
  globalThis.sharedStackHost = undefined;
}
