export * from "./database-gauges";
export * from "./metrics";
export * from "./pending-metrics";
export * from "./registry";
