export * from "./anvil";
