export * from "./public-address";
