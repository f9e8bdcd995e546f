/**
 * `pnpm start`: the whole suite on this machine, in order: database migrations, the local chains,
 * the platform contracts, then the five services under concurrently, which restarts a service that
 * fails (supervise-services.ts). Ctrl-C (or SIGTERM) stops the services first, then the chains,
 * which write their state files on the way out. `pnpm start --with-op` adds a third local chain,
 * OP Sepolia (11155420) on anvil in optimism mode, which charges an L1 data fee (withOpStack).
 */
import { EventEmitter } from "node:events";
import { parseArgs } from "node:util";
import { z } from "zod";
import { redactRpcUrl } from "@sweep/rpc";
import { baseEnv, loadConfig, port } from "@sweep/common";
import { migrateDatabase, repoRoot } from "@sweep/db";
import { chainEndpoints, startLocalChains, withOpStack, type RunningChain } from "./chains";
import { deployPlatformToChains } from "./deploy-platform";
import { localServiceEnv } from "./service-env";
import { superviseServices } from "./supervise-services";
import { serviceNodeArgs, type ServiceName } from "@sweep/service-bundles";

const stackEnv = z.object({
  SERVICE_ENV: baseEnv.SERVICE_ENV,
  DATABASE_URL: baseEnv.DATABASE_URL,
  /** seconds between blocks of the local chains */
  DEVNET_BLOCK_TIME: z.coerce.number().int().min(1).default(1),
  // The api-gateway's own variables, read here only to say where it listens.
  HOST: z.string().default("127.0.0.1"),
  PORT: port(8080),
});
type StackConfig = z.infer<typeof stackEnv>;

const services: Array<{ name: ServiceName; color: string }> = [
  { name: "api-gateway", color: "cyan" },
  { name: "batcher", color: "green" },
  { name: "chain-sender", color: "yellow" },
  { name: "ledger", color: "magenta" },
  { name: "webhook-dispatcher", color: "blue" },
];

const say = (line: string) => console.log(`[stack] ${line}`);

let stopping = false;
/**
 * The first stop signal, for concurrently to pass on to the services. Later ones are dropped: a
 * Ctrl-C can arrive twice (the tsx that runs this file may pass the terminal's signal on again),
 * and a second signal would end the services' graceful shutdown.
 */
const stopSignal = new EventEmitter();
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  // A listener also keeps Node from exiting at once: the chains must be stopped first.
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping`);
    stopSignal.emit(signal, signal);
  });
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { "with-op": { type: "boolean", default: false } } });
  // The services read ENV_CHAINS from the environment this process passes on.
  if (values["with-op"]) process.env.ENV_CHAINS = withOpStack(process.env);
  const config = loadConfig(stackEnv);
  if (values["with-op"] && config.SERVICE_ENV !== "testnet") throw new Error("--with-op adds a local testnet chain (OP Sepolia): SERVICE_ENV must be testnet");

  say(`database ${withoutPassword(config.DATABASE_URL)}: applying migrations`);
  await migrateDatabase(config.DATABASE_URL);
  if (stopping) return 130;

  const endpoints = chainEndpoints(config.SERVICE_ENV);
  for (const { chain, rpcUrl, local } of endpoints) {
    if (!local) say(`chain ${chain.chainId}: ${redactRpcUrl(rpcUrl)} (RPC_URL_${chain.chainId}), not started here`);
  }
  const chains = await startLocalChains(
    endpoints.flatMap((e) => (e.local ? [e.local] : [])),
    config.DEVNET_BLOCK_TIME,
    say,
  );
  try {
    if (!stopping) await deployPlatformToChains(endpoints.filter((e) => e.local), say);
    if (stopping) return 130;
    return await runServices(config, chains);
  } finally {
    stopping = true;
    if (chains.length > 0) say("stopping the local chains");
    await Promise.all(chains.map((chain) => chain.stop()));
  }
}

/** Runs the services until they have all exited; resolves with the stack's exit code. */
async function runServices(config: StackConfig, chains: RunningChain[]): Promise<number> {
  const env = localServiceEnv(process.env, chains.map((chain) => chain.chainId), config.DEVNET_BLOCK_TIME);
  if (env.WEBHOOK_ALLOW_PRIVATE) say("WEBHOOK_ALLOW_PRIVATE=true, as it is not set: webhooks may go to this machine and private hosts (local development)");
  if (env.WEBHOOK_ALLOW_HTTP) say("WEBHOOK_ALLOW_HTTP=true, as it is not set: webhooks may use plain http (local development)");
  say(`starting ${services.map((s) => s.name).join(", ")}; the API listens on http://${config.HOST}:${config.PORT}`);
  const supervised = superviseServices(
    // node on the service's bundle (pnpm prepare-workspace built it), no wrapper: the tsx command would put a
    // supervisor in between that passes signals on again when it misses the service's acknowledgement (a
    // race), and a second signal ends a service's graceful shutdown.
    services.map(({ name, color }) => ({ name, prefixColor: color, command: ["node", ...serviceNodeArgs(name, ".")].join(" "), env })),
    { cwd: repoRoot, outputStream: process.stdout, stopSignals: stopSignal },
  );
  // Giving up on a service stops the stack: a signal from now on would be a second one.
  supervised.stopping.addEventListener("abort", () => {
    stopping = true;
  });
  let chainLost = false;
  for (const chain of chains) {
    chain.process?.once("exit", (code, signal) => {
      if (stopping) return;
      say(`chain ${chain.chainId}: anvil exited (${signal ?? `code ${code}`}); stopping the services`);
      chainLost = true;
      supervised.stop();
    });
  }
  const exitCode = await supervised.exitCode;
  return chainLost ? 1 : exitCode;
}

function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`[stack] ${err.message}`);
    process.exit(1);
  },
);
