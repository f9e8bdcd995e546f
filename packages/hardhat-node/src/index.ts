export * from "./hardhat-node";
