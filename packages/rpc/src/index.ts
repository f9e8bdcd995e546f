export * from "./chain-client";
export * from "./chain-provider";
export * from "./endpoint-health";
export * from "./node-errors";
export * from "./provider-refusals";
export * from "./rpc-endpoints";
export * from "./rpc-url";
export * from "./finality";
