/**
 * What `pnpm start` sets for its services over its own environment. The stack is local development,
 * as docker-compose is: webhooks may go to a receiver on this machine: private hosts
 * (WEBHOOK_ALLOW_PRIVATE) and plain http (WEBHOOK_ALLOW_HTTP), each unless set, whatever its value. The chains it started make a block every
 * `blockTimeSeconds` (DEVNET_BLOCK_TIME): each one's BLOCK_TIME_MS_<chain_id> says so, unless set.
 */
export function localServiceEnv(env: NodeJS.ProcessEnv, localChainIds: readonly number[] = [], blockTimeSeconds = 1): Record<string, string> {
  const blockTimes = localChainIds.filter((chainId) => env[`BLOCK_TIME_MS_${chainId}`] === undefined).map((chainId) => [`BLOCK_TIME_MS_${chainId}`, String(blockTimeSeconds * 1000)]);
  const switches = ["WEBHOOK_ALLOW_PRIVATE", "WEBHOOK_ALLOW_HTTP"].filter((name) => env[name] === undefined).map((name) => [name, "true"]);
  return { ...Object.fromEntries(switches), ...Object.fromEntries(blockTimes) };
}
