import { ConfigError } from "@sweep/common";

const MAX_TTL_MS = 600_000;

/** Each served chain's balance cache time: BALANCE_CACHE_MS_<chain_id>, else its block time (BLOCK_TIME_MS_<chain_id>); 0 reads the node every time. */
export function balanceCacheTtls(chains: ReadonlyArray<{ chainId: number; blockTimeMs: number }>, env: NodeJS.ProcessEnv): Map<number, number> {
  const problems: string[] = [];
  const ttls = new Map<number, number>();
  for (const { chainId, blockTimeMs } of chains) {
    const name = `BALANCE_CACHE_MS_${chainId}`;
    const raw = env[name];
    if (raw === undefined || raw === "") {
      ttls.set(chainId, Math.min(blockTimeMs, MAX_TTL_MS));
      continue;
    }
    const ms = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || ms > MAX_TTL_MS) problems.push(`${name} must be whole milliseconds from 0 to ${MAX_TTL_MS}`);
    else ttls.set(chainId, ms);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return ttls;
}
