export * from "./service-process";
export * from "./test-chains";
export * from "./test-database";
export * from "./test-partner";
export * from "./stack";
export * from "./partner-api";
export * from "./sweepctl-process";
export * from "./webhook-receiver";
