import { ConfigError, collectingProblems, type Environment } from "@sweep/common";
import { configuredFeeCeiling, configuredTariffs, configuredTxFeeCap, type ChainFeeCeiling, type ChainTariff } from "@sweep/fees";
import { ChainClient, ChainProvider, RpcEndpoints, redactRpcUrl } from "@sweep/rpc";
import { ZeroAddress, getAddress, isAddress } from "ethers";
import { devnetTokenAddress, factoryDeployment } from "./devnet-addresses";
import { mainnetGaps } from "./mainnet-requirements";
import { chainRegistry, environmentChainIds, rpcUrlsFor, type ChainInfo } from "./registry";

/** Everything the suite is configured with for one chain, read and checked once at start. */
export interface ChainConfig extends ChainInfo {
  /** `RPC_URL_<chain_id>`, in the order failover tries them */
  rpcUrls: string[];
  /** the delegate factory: `FACTORY_ADDRESS_<chain_id>`, else the deterministic CREATE2 address */
  factory: string;
  /** the configured tariff, before a partner's agreement */
  tariff: ChainTariff;
  /** `TREASURY_ADDRESS_<chain_id>`: where withdrawn fees go; null when unset (withdrawals fail) */
  treasury: string | null;
  /** `MAX_FEE_PER_GAS_<chain_id>` / `MAX_PRIORITY_FEE_PER_GAS_<chain_id>`: no transaction of the chain offers more (a partner may set lower) */
  feeCeiling: ChainFeeCeiling;
  /** `TX_FEE_CAP_<chain_id>`: the most one transaction may cost at its gas limit and max fee, wei (default 1 coin) */
  txFeeCap: bigint;
}

/** A configured chain with its connection: its endpoints, an ethers provider over them, and the client. */
export interface ServedChain extends ChainConfig {
  endpoints: RpcEndpoints;
  provider: ChainProvider;
  client: ChainClient;
}

/** An address other than zero (a valid checksum when mixed case), EIP-55; the message names the variable. */
export function configuredAddress(variable: string, value: string): string {
  if (!isAddress(value) || getAddress(value) === ZeroAddress) throw new Error(`${variable} must be an address other than the zero address (a valid checksum when mixed case)`);
  return getAddress(value);
}

/**
 * The chains a process serves (its environment's, narrowed to `only`: a per-chain service's CHAINS),
 * with every per-chain variable checked: RPC_URL_, CONFIRMATIONS_, TOKEN_<id>_<TICKER>,
 * FACTORY_ADDRESS_, RATE_BPS_, NATIVE_MARKUP_BPS_, CLASSIC_GAS_<id>_<TICKER>, TREASURY_ADDRESS_,
 * MAX_FEE_PER_GAS_, MAX_PRIORITY_FEE_PER_GAS_.
 * On mainnet a served chain must also have what mainnetGaps names (classic gas of each token, both
 * fee ceilings, at least its minimum confirmations).
 * Every bad or missing one is named in one ConfigError; values are never echoed (URLs and keys are secrets).
 */
export function loadChainConfigs(environment: Environment, only?: readonly number[], env: NodeJS.ProcessEnv = process.env): ChainConfig[] {
  const problems: string[] = [];
  const checked = collectingProblems(problems);
  // The chains' variables are read only for the chains ENV_CHAINS names: a bad list is the one problem.
  if (!checked(() => environmentChainIds(environment, env))) throw new ConfigError(problems);
  const registry = chainRegistry(environment, devnetTokenAddress, env, checked);
  const ids = registry.map((chain) => chain.chainId);
  const unknown = (only ?? []).filter((id) => !ids.includes(id));
  if (unknown.length > 0) problems.push(`CHAINS names ${unknown.join(", ")}, not a chain of the ${environment} environment (${ids.join(", ")}; ENV_CHAINS lists them)`);
  const tariffs = new Map(configuredTariffs(registry, env, checked).map((t) => [t.chainId, t]));
  const configs = registry
    .filter((chain) => only === undefined || only.includes(chain.chainId))
    .map((chain) => {
      const factoryVariable = `FACTORY_ADDRESS_${chain.chainId}`;
      const treasuryVariable = `TREASURY_ADDRESS_${chain.chainId}`;
      return {
        ...chain,
        rpcUrls: checked(() => rpcUrlsFor(chain, env)) ?? [],
        factory: checked(() => (env[factoryVariable] ? configuredAddress(factoryVariable, env[factoryVariable]) : getAddress(factoryDeployment().address))) ?? ZeroAddress,
        tariff: tariffs.get(chain.chainId)!,
        treasury: checked(() => (env[treasuryVariable] ? configuredAddress(treasuryVariable, env[treasuryVariable]) : null)) ?? null,
        feeCeiling: configuredFeeCeiling(chain.chainId, env, checked),
        txFeeCap: configuredTxFeeCap(chain.chainId, env, checked),
      };
    });
  if (environment === "mainnet") for (const chain of configs) problems.push(...mainnetGaps(chain, env));
  if (problems.length > 0) throw new ConfigError(problems);
  return configs;
}

/**
 * A service's own variables (`loadBase`) and its chains', every bad one of both named in one
 * ConfigError. `served` picks the chains from the service's configuration (a per-chain service's
 * CHAINS; undefined for all); when the service's own variables are bad, the environment's chains are checked as they stand.
 */
export function loadWithChains<C extends { SERVICE_ENV: Environment }>(loadBase: () => C, served: (config: C) => readonly number[] | undefined, env: NodeJS.ProcessEnv): C & { chains: ChainConfig[] } {
  return loadBeside(
    loadBase,
    env,
    (environment) => loadChainConfigs(environment, undefined, env),
    (base) => ({ chains: loadChainConfigs(base.SERVICE_ENV, served(base), env) }),
  );
}

/**
 * A service's own variables and the environment's chain ids, for a process that needs only the ids
 * (the queues it declares): a bad ENV_CHAINS is named with its other bad variables.
 */
export function loadWithChainIds<C extends { SERVICE_ENV: Environment }>(loadBase: () => C, env: NodeJS.ProcessEnv): C & { chainIds: number[] } {
  return loadBeside(
    loadBase,
    env,
    (environment) => configuredChainIds(environment, env),
    (base) => ({ chainIds: configuredChainIds(base.SERVICE_ENV, env) }),
  );
}

/**
 * `loadBase`, then `readChains` of its result; when the service's own variables are bad, `checkChains`
 * in the environment SERVICE_ENV names (else testnet), so that one ConfigError names every bad variable.
 */
function loadBeside<C extends { SERVICE_ENV: Environment }, T>(loadBase: () => C, env: NodeJS.ProcessEnv, checkChains: (environment: Environment) => unknown, readChains: (base: C) => T): C & T {
  let base: C;
  try {
    base = loadBase();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const chainProblems = (() => {
      try {
        checkChains(env.SERVICE_ENV === "mainnet" ? "mainnet" : "testnet");
        return [];
      } catch (chainErr) {
        return chainErr instanceof ConfigError ? chainErr.problems : [];
      }
    })();
    throw new ConfigError([...err.problems, ...chainProblems]);
  }
  return { ...base, ...readChains(base) };
}

/** The environment's chain ids, a bad ENV_CHAINS as a ConfigError. */
function configuredChainIds(environment: Environment, env: NodeJS.ProcessEnv = process.env): number[] {
  try {
    return environmentChainIds(environment, env);
  } catch (err) {
    throw new ConfigError([err instanceof Error ? err.message : String(err)]);
  }
}

export interface ConnectOptions {
  /** one HTTP request to one endpoint longer than this is a timeout (the next endpoint is tried) */
  timeoutMs: number;
}

/** Connects the configured chains: their endpoints (failover, health, metrics), a provider over them, and the chain client. */
export function connectChains(configs: readonly ChainConfig[], options: ConnectOptions): ServedChain[] {
  return configs.map((config) => {
    const endpoints = new RpcEndpoints(config.chainId, config.rpcUrls, { timeoutMs: options.timeoutMs });
    const provider = new ChainProvider(endpoints);
    return { ...config, endpoints, provider, client: new ChainClient({ chainId: config.chainId, confirmations: config.confirmations, finality: config.finality, provider, chargesL1DataFee: config.feeModel === "op-stack" }) };
  });
}

/** What a start-up log line may say of a chain's configuration: endpoints by host, never their paths or keys. */
export function describeChain(chain: ChainConfig): Record<string, unknown> {
  return { chainId: chain.chainId, endpoints: chain.rpcUrls.map(redactRpcUrl), confirmations: chain.confirmations, treasury: chain.treasury };
}
