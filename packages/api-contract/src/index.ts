export * from "./document";
export * from "./events";
export * from "./presenters";
export * from "./registry";
export * from "./request-id";
export * from "./requests";
export * from "./responses";
export * from "./scalars";
export { z } from "./zod";
