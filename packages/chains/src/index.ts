export * from "./chain-config";
export * from "./devnet-addresses";
export * from "./mainnet-requirements";
export * from "./platform-addresses";
export * from "./registry";
export * from "./stored-authorization";
