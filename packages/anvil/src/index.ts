export * from "./anvil";
export * from "./anvil-binary";
export * from "./l1-block-fees";
