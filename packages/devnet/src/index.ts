export * from "./chains";
export * from "./deploy-platform";
export * from "./devnet-info";
export * from "./reset";
