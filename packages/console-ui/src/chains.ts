import { api, unwrap, type Schemas } from "./api";

/** A chain as the console shows it: its id and name, its coin, and its tokens with their decimals. */
export type ConsoleChain = Pick<Schemas["ChainTariff"], "chain_id" | "name" | "native" | "tokens">;

/** The environment's chains, from GET /v1/tariff (it reads no node, so it answers when a chain does not). */
export async function readChains(): Promise<ConsoleChain[]> {
  const tariff = await unwrap(api.GET("/v1/tariff"));
  return tariff.chains.map(({ chain_id, name, native, tokens }) => ({ chain_id, name, native, tokens }));
}
