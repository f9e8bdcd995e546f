export * from "./config";
export * from "./errors";
export * from "./health-server";
export * from "./http-server";
export * from "./logger";
export * from "./run-service";
export * from "./shutdown";
