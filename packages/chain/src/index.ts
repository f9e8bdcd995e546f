export * from "./devnet-addresses";
export * from "./key-encryption";
export * from "./partner-tariff";
export * from "./provider";
export * from "./registry";
export * from "./signer";
export * from "./platform-addresses";
export * from "./tariff";
