export { Prisma } from "@prisma/client";
export type * from "@prisma/client";
export * from "./client";
export * from "./database";
export * from "./decimal";
export * from "./fee-reserve";
export * from "./outbox";
export * from "./withdrawals";
export * from "./presented-rows";
