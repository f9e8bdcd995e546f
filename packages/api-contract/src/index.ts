export * from "./document";
export * from "./registry";
export * from "./scalars";
export { z } from "./zod";
