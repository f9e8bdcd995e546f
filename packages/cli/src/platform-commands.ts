import { chainPreset, environmentChainIds, loadChainConfigs, type ChainConfig } from "@sweep/chains";
import type { Environment } from "@sweep/common";
import { formatUnits, Wallet } from "ethers";
import { pinFirstAnswering, type PinnedChain } from "./chain-endpoint";
import { chainConfigurationReport, type ConfigurationItem } from "./chain-configuration-report";
import type { CommandContext } from "./context";
import { deployFactory, FactoryDeploymentError, type FactoryOutcome } from "./factory-deployment";
import { parseChainId } from "./ids";

/** What `platform deploy --json` prints. Wei amounts are strings, as on the API. */
export interface PlatformDeployment {
  chain_id: number;
  name: string;
  /** the endpoint used: its host only */
  rpc_endpoint: string;
  deployer: string;
  factory: { address: string; status: FactoryOutcome["status"]; tx_hash: string | null; gas_used: string | null; fee_paid: string | null };
  /** what the services on this chain need configured, in order */
  configuration: ConfigurationItem[];
}

export interface PlatformDeployTimings {
  /** one HTTP request to an endpoint */
  requestTimeoutMs: number;
  /** the deployment transaction, from broadcast to its receipt, looked for every pollMs */
  minedWithinMs: number;
  pollMs: number;
}

const DEFAULT_TIMINGS: PlatformDeployTimings = { requestTimeoutMs: 15_000, minedWithinMs: 300_000, pollMs: 2_000 };

/**
 * `platform deploy --chain ID`: deploys the delegate factory on a chain of SERVICE_ENV, from the
 * account of DEPLOYER_KEY, through the CREATE2 deployer (the same address on every chain), on the
 * first endpoint of RPC_URL_<chain_id> that answers; then prints what the services on that chain
 * need configured. Run again, it sends nothing. The key, and the URLs' paths and queries, are
 * never printed.
 */
export async function deployPlatform(
  ctx: Pick<CommandContext, "config" | "out">,
  options: { chain: string },
  env: NodeJS.ProcessEnv = process.env,
  timings: PlatformDeployTimings = DEFAULT_TIMINGS,
): Promise<void> {
  const chainId = parseChainId(options.chain);
  const config = chainConfig(ctx.config.SERVICE_ENV, chainId, env);
  const deployer = deployerWallet(env);
  const pinned = await pinFirstAnswering(config, timings.requestTimeoutMs);
  try {
    for (const probe of pinned.probes) {
      if (probe.failure !== null) ctx.out.note(`RPC_URL_${chainId}: ${probe.failure}; skipped`);
      else if (probe.chainId !== chainId) {
        throw new FactoryDeploymentError("wrong_chain", `RPC_URL_${chainId} names ${probe.endpoint}, a node of chain ${probe.chainId}, not ${chainId}`);
      }
    }
    const outcome = await deployFactory(pinned.client, deployer, {
      nativeTicker: config.nativeTicker,
      minedWithinMs: timings.minedWithinMs,
      pollMs: timings.pollMs,
      say: (line) => ctx.out.note(line),
    });
    const configuration = await chainConfigurationReport(config, env, pinned.client);
    print(ctx, config, pinned, deployer.address, outcome, configuration);
  } finally {
    pinned.client.provider.destroy();
  }
}

/**
 * The chain's configuration as the services read it (every malformed variable named), with its
 * RPC URL required: unset, the services would use a local anvil, which is not where to deploy.
 */
function chainConfig(environment: Environment, chainId: number, env: NodeJS.ProcessEnv): ChainConfig {
  const served = environmentChainIds(environment, env);
  if (!served.includes(chainId)) {
    const preset = chainPreset(chainId);
    if (preset && preset.environment !== environment) {
      throw new Error(`--chain ${chainId} is a chain of the ${preset.environment} environment, and SERVICE_ENV is ${environment}: set SERVICE_ENV=${preset.environment} to deploy there`);
    }
    throw new Error(`--chain ${chainId} is not a chain of the ${environment} environment (${served.join(", ")}): add it to ENV_CHAINS, as the services are configured`);
  }
  if (!env[`RPC_URL_${chainId}`]) {
    throw new Error(`RPC_URL_${chainId} is required: the chain's JSON-RPC URL (several, comma-separated, for failover); pnpm start deploys the local chains' contracts itself`);
  }
  return loadChainConfigs(environment, [chainId], env)[0]!;
}

/** DEPLOYER_KEY: never echoed, not even in part, whatever is wrong with it. */
function deployerWallet(env: NodeJS.ProcessEnv): Wallet {
  const key = env.DEPLOYER_KEY?.trim();
  if (!key) throw new Error("DEPLOYER_KEY is required: the private key (hex) of an account on the chain that pays for the deployment");
  const malformed = new Error("DEPLOYER_KEY must be a private key: 32 bytes as 64 hex digits, 0x optional");
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(key)) throw malformed;
  try {
    return new Wallet(key.startsWith("0x") ? key : `0x${key}`);
  } catch {
    // zero, or not below the curve's order
    throw malformed;
  }
}

function print(ctx: Pick<CommandContext, "out">, config: ChainConfig, pinned: PinnedChain, deployer: string, outcome: FactoryOutcome, configuration: ConfigurationItem[]): void {
  const deployed = outcome.status === "deployed" ? outcome : null;
  const result: PlatformDeployment = {
    chain_id: config.chainId,
    name: config.name,
    rpc_endpoint: pinned.endpoint,
    deployer,
    factory: {
      address: outcome.address,
      status: outcome.status,
      tx_hash: deployed?.txHash ?? null,
      gas_used: deployed?.gasUsed.toString() ?? null,
      fee_paid: deployed?.feePaid.toString() ?? null,
    },
    configuration,
  };
  const width = Math.max(...configuration.map((item) => item.variable.length));
  const lines = [
    `chain ${config.chainId} (${config.name}) through ${pinned.endpoint}, deployer ${deployer}`,
    deployed
      ? `DelegateFactory deployed at ${outcome.address}: ${deployed.txHash}, ${deployed.gasUsed.toLocaleString("en-US")} gas, ${formatUnits(deployed.feePaid)} ${config.nativeTicker}`
      : `DelegateFactory already at ${outcome.address}: nothing sent`,
    "",
    `The services on chain ${config.chainId} (docs/real-chains.md):`,
    ...configuration.map((item) => `  ${item.variable.padEnd(width)}  ${item.status}${item.value === null ? "" : ` ${item.value}`}: ${item.note}`),
  ];
  ctx.out.result(result, lines);
}
