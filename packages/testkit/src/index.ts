export * from "./service-process";
export * from "./test-chains";
export * from "./test-database";
export * from "./test-partner";
export * from "./stack";
export * from "./partner-api";
export * from "./sweepctl-process";
export * from "./webhook-receiver";
export * from "./work-queues";
export * from "./partner-setup";
export * from "./private-rabbitmq";
export * from "./settled-gas-wallet";
export * from "./prometheus-text";
export * from "./invariants";
export * from "./seeded-random";
export * from "./rpc-fault-proxy";
export type { AnswerEncodings } from "./rpc-answer-encodings";
// Tests name a stack's queues (e.g. the queue label of its metrics) as its services do.
export { queueNames } from "@sweep/messaging";
