import type { ChainConfig, TokenListing } from "@sweep/chains";
import type { ChainTariff } from "@sweep/fees";
import { getAddress } from "ethers";
import { ApiError } from "./http/api-error";

/** What the API knows of a chain of its environment: names, listed tokens, the delegate factory and the configured tariff. No node is ever asked. */
export interface GatewayChain {
  chainId: number;
  name: string;
  nativeTicker: string;
  tokens: TokenListing[];
  factory: string;
  /** before a partner's agreement */
  tariff: ChainTariff;
}

export function gatewayChains(configs: readonly ChainConfig[]): GatewayChain[] {
  return configs.map((chain) => ({
    chainId: chain.chainId,
    name: chain.name,
    nativeTicker: chain.nativeTicker,
    tokens: chain.tokens.map((token) => ({ ...token, address: getAddress(token.address) })),
    factory: chain.factory,
    tariff: chain.tariff,
  }));
}

/** The chain a request names, or the spec's 422 unknown_chain naming the chains served. */
export function servedChain<C>(chains: ReadonlyMap<number, C>, chainId: number): C {
  const chain = chains.get(chainId);
  if (!chain) throw new ApiError("unknown_chain", `chain_id ${chainId} is not supported here; use one of ${[...chains.keys()].join(", ")}`);
  return chain;
}

/** The token a request names on its chain (resolveToken), or the spec's 422 unknown_token naming what the chain lists. */
export function listedToken(chain: Pick<GatewayChain, "chainId" | "nativeTicker" | "tokens">, token: string): ResolvedToken {
  const resolved = resolveToken(chain, token);
  if (resolved) return resolved;
  const listed = [...chain.tokens.map((t) => t.ticker), `native (${chain.nativeTicker})`].join(", ");
  throw new ApiError("unknown_token", `token ${JSON.stringify(token)} is not listed on chain ${chain.chainId}; listed: ${listed}`);
}

/** EIP-55 forms kept: some 10 MB. */
const CHECKSUMS_KEPT = 50_000;
const checksums = new Map<string, string>();

/**
 * An address in any letter case, as the spec accepts it, in its EIP-55 form (a wrong mixed-case
 * checksum is not refused). The forms of the addresses seen lately are kept: a deposit address is
 * swept again and again, and each checksum is a keccak in JavaScript (some 3% of a POST, issue 28).
 */
export function checksumAddress(address: string): string {
  const lower = address.toLowerCase();
  const known = checksums.get(lower);
  if (known !== undefined) return known;
  const checksummed = getAddress(lower);
  // Oldest first out: a Map iterates in insertion order.
  if (checksums.size >= CHECKSUMS_KEPT) checksums.delete(checksums.keys().next().value!);
  checksums.set(lower, checksummed);
  return checksummed;
}

export interface ResolvedToken {
  /** the listed ticker or the chain's native ticker, as the sweep stores it */
  ticker: string;
  /** EIP-55 contract address; null for the native coin */
  address: string | null;
}

/**
 * The token a request names: a listed ticker (any case), a listed contract address (any case),
 * or `native` / the native ticker (any case). Null when the chain lists no such token.
 */
export function resolveToken(chain: Pick<GatewayChain, "nativeTicker" | "tokens">, token: string): ResolvedToken | null {
  const wanted = token.toLowerCase();
  if (wanted === "native" || wanted === chain.nativeTicker.toLowerCase()) return { ticker: chain.nativeTicker, address: null };
  const listed = chain.tokens.find((t) => t.ticker.toLowerCase() === wanted || t.address.toLowerCase() === wanted);
  return listed ? { ticker: listed.ticker, address: listed.address } : null;
}
