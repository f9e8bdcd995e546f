import { MEASURED_CLASSIC_GAS, classicGasVariable, formatClassicGas } from "@sweep/fees";
import { factoryDeployment, type ChainConfig } from "@sweep/chains";
import { redactRpcUrl, type ChainClient } from "@sweep/rpc";
import { getAddress } from "ethers";

/**
 * One variable the services read for a chain, as this environment has it: `set`, `default` (unset,
 * and the default serves), `required` (unset, and the services need it on a real chain),
 * `not_needed`, or `wrong` (set, or defaulted, to something this chain does not have).
 */
export interface ConfigurationItem {
  variable: string;
  status: "set" | "default" | "required" | "not_needed" | "wrong";
  /** the value in effect; for RPC_URL_<chain_id> the endpoints' scheme and host only */
  value: string | null;
  note: string;
}

/** ERC-20 decimals(): the listed token's contract must agree with the decimals the service lists. */
const DECIMALS_CALL = "0x313ce567";

/**
 * What the services on a chain need configured, after its factory is in place: each variable of
 * the chain (already checked by loadChainConfigs) with its value in effect and, for a listed token,
 * whether the chain has its contract with the listed decimals. It reads, never changes, anything.
 */
export async function chainConfigurationReport(config: ChainConfig, env: NodeJS.ProcessEnv, client: ChainClient): Promise<ConfigurationItem[]> {
  const id = config.chainId;
  const status = (variable: string) => (env[variable] ? "set" : "default");
  const items: ConfigurationItem[] = [
    {
      variable: `RPC_URL_${id}`,
      status: "set",
      value: config.rpcUrls.map(redactRpcUrl).join(","),
      note: "several URLs, comma-separated, give the services failover (docs/real-chains.md: what the node must answer)",
    },
    factoryItem(config),
    {
      variable: `CONFIRMATIONS_${id}`,
      status: status(`CONFIRMATIONS_${id}`),
      value: String(config.confirmations),
      note: "blocks on top of a transaction's block before its outcome is final",
    },
  ];
  for (const token of config.tokens) items.push(await tokenItem(config, token, env, client));
  items.push(
    config.treasury === null
      ? { variable: `TREASURY_ADDRESS_${id}`, status: "required", value: null, note: "the platform's treasury on this chain, where withdrawn fees go; unset, every withdrawal fails" }
      : { variable: `TREASURY_ADDRESS_${id}`, status: "set", value: config.treasury, note: "where withdrawn fees go" },
  );
  for (const token of config.tokens) {
    const variable = classicGasVariable(id, token.ticker);
    const gas = config.tariff.classicGas?.[token.ticker];
    const what = "the classic sweep's gas (top-up + the address's own transfer), the token fee's benchmark";
    if (gas === undefined) items.push({ variable, status: "required", value: null, note: `${what}: unset, token sweeps carry no fee (docs/real-chains.md, Tariff)` });
    else if (env[variable]) items.push({ variable, status: "set", value: formatClassicGas(gas), note: what });
    else {
      const measured = MEASURED_CLASSIC_GAS[id]?.[token.ticker] !== undefined;
      items.push({
        variable,
        status: "default",
        value: formatClassicGas(gas),
        note: `${what}: ${measured ? "`sweepctl tariff measure`'s figure for the devnet token on a local anvil" : "the default"}; measure this chain's token for its own (docs/real-chains.md, Tariff)`,
      });
    }
  }
  return items;
}

function factoryItem(config: ChainConfig): ConfigurationItem {
  const variable = `FACTORY_ADDRESS_${config.chainId}`;
  const deterministic = getAddress(factoryDeployment().address);
  if (config.factory === deterministic) return { variable, status: "not_needed", value: null, note: `the factory is at its deterministic address ${deterministic}` };
  return { variable, status: "wrong", value: config.factory, note: `the services would use this factory, not the one at ${deterministic}: unset it` };
}

async function tokenItem(config: ChainConfig, token: ChainConfig["tokens"][number], env: NodeJS.ProcessEnv, client: ChainClient): Promise<ConfigurationItem> {
  const variable = `TOKEN_${config.chainId}_${token.ticker}`;
  const configured = Boolean(env[variable]);
  const listing = `the ${token.ticker} contract on this chain, an ERC-20 with ${token.decimals} decimals`;
  const code = await client.provider.getCode(token.address).catch(() => null);
  if (code === "0x") {
    return configured
      ? { variable, status: "wrong", value: token.address, note: `no contract at that address on this chain: set ${listing}` }
      : { variable, status: "required", value: null, note: `unset, the services look for ${token.ticker} at ${token.address}, which has no code here: set ${listing}` };
  }
  const decimals = await client.provider.call({ to: token.address, data: DECIMALS_CALL }).then(
    (answer) => (answer.length === 66 ? Number(BigInt(answer)) : undefined),
    () => undefined,
  );
  if (code === null || decimals !== token.decimals) {
    const found = code === null ? "its code could not be read" : `decimals() answers ${decimals ?? "nothing"}`;
    return { variable, status: "wrong", value: token.address, note: `${found}: set ${listing}` };
  }
  return { variable, status: configured ? "set" : "default", value: token.address, note: `${token.decimals} decimals, checked on the chain` };
}
