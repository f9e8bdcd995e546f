export * from "./amount";
export * from "./api-key";
export * from "./config";
export * from "./errors";
export * from "./health-server";
export * from "./logger";
export * from "./shutdown";
