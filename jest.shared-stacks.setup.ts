import { hostSharedStacks, type SharedStackHost } from "@sweep/testkit";
import globalSetup from "./jest.global-setup";

declare global {
  var sharedStackHost: SharedStackHost | undefined;
}

/**
 * The "stories on shared stacks" project's setup. jest runs it before the root's, so it runs the root's
 * first (the stacks copy the migrated template), then hosts the stacks, each started at its first
 * story's asking; jest.shared-stacks.teardown.ts stops them.
 */
export default async function sharedStacksSetup(globalConfig: { maxWorkers: number }): Promise<void> {
  await globalSetup(globalConfig);
  globalThis.sharedStackHost = await hostSharedStacks();
}
