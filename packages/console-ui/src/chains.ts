import { api, unwrap, type Schemas } from "./api";

/** The environment's chains by id and name, from GET /v1/tariff (it reads no node, so it answers when a chain does not). */
export async function readChains(): Promise<Pick<Schemas["ChainTariff"], "chain_id" | "name">[]> {
  const tariff = await unwrap(api.GET("/v1/tariff"));
  return tariff.chains.map(({ chain_id, name }) => ({ chain_id, name }));
}
