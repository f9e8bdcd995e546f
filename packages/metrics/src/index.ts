export * from "./database-gauges";
export * from "./leader-metrics";
export * from "./metrics";
export * from "./pending-metrics";
export * from "./registry";
