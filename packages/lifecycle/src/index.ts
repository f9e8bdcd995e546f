export * from "./attempt-failure";
export * from "./events";
export * from "./hot-wallet-transitions";
export * from "./retry-schedule";
export * from "./work-wakes";
export * from "./transitions";
export * from "./work-kinds";
export * from "./work-transitions";
