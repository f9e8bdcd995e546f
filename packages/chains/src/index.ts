export * from "./authorization-signer";
export * from "./chain-config";
export * from "./devnet-addresses";
export * from "./mainnet-requirements";
export * from "./platform-addresses";
export * from "./presets";
export * from "./registry";
export * from "./stored-authorization";
