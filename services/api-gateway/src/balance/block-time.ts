import { ConfigError } from "@sweep/common";

/**
 * About a block's time on each chain the service knows: how long a balance read stays fresh.
 * BSC has made blocks under a second since its 2025 hard forks (Lorentz, Maxwell): 1 s there.
 */
const blockTimeMs: Readonly<Record<number, number>> = { 1: 12_000, 11155111: 12_000, 56: 1_000, 97: 1_000 };

const MAX_TTL_MS = 600_000;

/** Each served chain's balance cache time: BALANCE_CACHE_MS_<chain_id>, else its block time; 0 reads the node every time. */
export function balanceCacheTtls(chainIds: readonly number[], env: NodeJS.ProcessEnv): Map<number, number> {
  const problems: string[] = [];
  const ttls = new Map<number, number>();
  for (const chainId of chainIds) {
    const name = `BALANCE_CACHE_MS_${chainId}`;
    const raw = env[name];
    if (raw === undefined || raw === "") {
      ttls.set(chainId, blockTimeMs[chainId] ?? 0);
      continue;
    }
    const ms = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || ms > MAX_TTL_MS) problems.push(`${name} must be whole milliseconds from 0 to ${MAX_TTL_MS}`);
    else ttls.set(chainId, ms);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return ttls;
}
