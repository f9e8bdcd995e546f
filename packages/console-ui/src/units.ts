import type { ConsoleChain } from "./chains";

/** What an amount is counted in: its symbol and decimals. */
export interface Asset {
  symbol: string;
  decimals: number;
}

/** Native amounts are wei on every EVM chain. */
export const NATIVE_DECIMALS = 18;

/**
 * The asset of `token` on a chain (a listed token's ticker, or the coin's when it is the coin or
 * absent); undefined when the chain or token is unknown here, and the amount is shown in base units.
 */
export function assetOf(chains: readonly ConsoleChain[], chainId: number, token?: string): Asset | undefined {
  const chain = chains.find((c) => c.chain_id === chainId);
  if (!chain) return undefined;
  if (token === undefined || token === chain.native) return { symbol: chain.native, decimals: NATIVE_DECIMALS };
  const listed = chain.tokens.find((t) => t.token === token);
  return listed && { symbol: listed.token, decimals: listed.decimals };
}
