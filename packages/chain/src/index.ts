export * from "./devnet-addresses";
export * from "./key-encryption";
export * from "./registry";
export * from "./signer";
