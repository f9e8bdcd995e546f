import { apiKeyCacheKey } from "@sweep/common";
import { chainEndpoints, devnetInfo, resetDevnet } from "@sweep/devnet";
import type { CommandContext } from "./context";

/** `devnet info`: each chain's RPC URL and listed tokens, as configured for this environment. */
export function showDevnetInfo(ctx: CommandContext): void {
  const info = devnetInfo(ctx.config.SERVICE_ENV);
  ctx.out.result(
    info,
    info.chains.flatMap((chain) => [
      `chain ${chain.chain_id}  ${chain.rpc_url}`,
      ...chain.tokens.map((t) => `  ${t.ticker.padEnd(6)} ${t.address}  ${t.decimals} decimals`),
    ]),
  );
}

/**
 * `devnet reset`: wipes the database and the local chains' state together (see resetDevnet: it
 * refuses while `pnpm start` runs). Cached API key look-ups go too: they describe the old database.
 */
export async function resetDevnetCommand(ctx: CommandContext): Promise<void> {
  const { SERVICE_ENV, DATABASE_URL } = ctx.config;
  if (SERVICE_ENV !== "testnet") throw new Error(`devnet reset runs only on the testnet environment, not ${SERVICE_ENV}`);
  const { stateFiles } = await resetDevnet(DATABASE_URL, chainEndpoints(SERVICE_ENV));
  const cachedKeys = await clearApiKeyCache(ctx);
  ctx.out.result({ database: "migrated afresh", state_files_removed: stateFiles, cached_api_keys_removed: cachedKeys }, [
    "database emptied and migrated afresh",
    ...(stateFiles.length > 0 ? stateFiles.map((file) => `removed ${file}`) : ["no chain state files to remove"]),
    `dropped ${cachedKeys} cached API key look-ups`,
    "`pnpm start` now starts fresh chains and deploys the platform contracts again.",
  ]);
}

async function clearApiKeyCache(ctx: CommandContext): Promise<number> {
  const redis = await ctx.redis();
  // SCAN's pattern and answers are whole keys: ioredis adds REDIS_KEY_PREFIX only to keys a command names.
  const prefix = redis.options.keyPrefix ?? "";
  let removed = 0;
  for await (const keys of redis.scanStream({ match: prefix + apiKeyCacheKey("*"), count: 500 })) {
    const batch = (keys as string[]).map((key) => key.slice(prefix.length));
    if (batch.length > 0) removed += await redis.del(...batch);
  }
  return removed;
}
