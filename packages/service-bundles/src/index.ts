export * from "./service-bundles";
