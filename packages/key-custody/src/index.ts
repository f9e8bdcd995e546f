export * from "./ecdsa-signature";
export * from "./key-custody-config";
export * from "./key-encryption";
export * from "./pkcs11-signer";
export * from "./pkcs11-token";
export * from "./signer";
