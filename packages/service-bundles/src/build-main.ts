import { buildServiceBundles } from "./service-bundles";

// `pnpm --filter @sweep/service-bundles build` (part of pnpm prepare-workspace).
void buildServiceBundles().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
