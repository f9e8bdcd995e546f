export * from "./hardhat-op-node";
