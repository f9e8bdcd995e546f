export * from "./anvil";
export * from "./anvil-binary";
