export * from "./polling-loop";
export * from "./worker-config";
