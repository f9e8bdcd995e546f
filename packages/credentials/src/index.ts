export * from "./api-key";
export * from "./api-key-cache";
export * from "./console-sign-in";
