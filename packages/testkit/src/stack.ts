import { randomBytes } from "node:crypto";
import { environmentChainIds } from "@sweep/chains";
import { createDb, type Db } from "@sweep/db";
import { defineTopology, deleteTopology } from "@sweep/messaging";
import { SERVICE_NAMES } from "@sweep/service-bundles";
import { startService, type ServiceName, type ServiceProcess } from "./service-process";
import { startTestChain, type NodeKind, type TestChain } from "./test-chains";
import { createTestDatabase } from "./test-database";

export interface Stack {
  /** the API's base address */
  api: string;
  db: Db;
  chains: Map<number, TestChain>;
  services: Map<ServiceName, ServiceProcess>;
  /** the environment every service of this stack runs with */
  env: Record<string, string>;
  chain(chainId: number): TestChain;
  /** starts (again) one service with the stack's environment, on the ports it had */
  restart(name: ServiceName): Promise<ServiceProcess>;
  /** starts another process of a service beside the one in `services` (a replica), stopped with the stack */
  startReplica(name: ServiceName, extraEnv?: Record<string, string>): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

export interface StackOptions {
  /** seconds between blocks; undefined mines a block per transaction */
  blockTime?: number;
  /** the node implementation both chains run on; anvil by default */
  node?: NodeKind;
  services?: ServiceName[];
  /**
   * extra variables for every service; the stack starts a local chain for each chain of ENV_CHAINS
   * (11155111 and 97 unless set), a chain without a preset described here as an operator would
   */
  env?: Record<string, string>;
}

/**
 * The whole suite on its own: the testnet chains (both, unless `env` sets ENV_CHAINS) on anvil or
 * hardhat (free ports, platform contracts deployed), a database of its own, a unique RabbitMQ
 * prefix, and the services as processes.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const chainIds = environmentChainIds("testnet", options.env ?? {});
  const database = await createTestDatabase();
  const chains = new Map<number, TestChain>();
  const services = new Map<ServiceName, ServiceProcess>();
  const replicas: ServiceProcess[] = [];
  const db = createDb(database.url);
  const prefix = `e2e-${randomBytes(4).toString("hex")}`;
  const rabbitmqUrl = options.env?.RABBITMQ_URL ?? process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";
  const stop = async () => {
    await Promise.all([...services.values(), ...replicas].map((s) => s.stop()));
    await deleteTopology(rabbitmqUrl, defineTopology({ chainIds, prefix }));
    await db.$disconnect();
    await Promise.all([...chains.values()].map((c) => c.stop()));
    await database.drop();
  };
  try {
    // Both chains, then every service, start at once: a stack is started twenty-odd times a suite,
    // and one after the other each spent most of its 20 s waiting for a process to come up.
    await allStarted(chainIds.map(async (chainId) => chains.set(chainId, await startTestChain(chainId, { blockTime: options.blockTime, node: options.node, env: options.env }))));
    const env: Record<string, string> = {
      SERVICE_ENV: "testnet",
      DATABASE_URL: database.url,
      AMQP_PREFIX: prefix,
      // Stacks run side by side on one Redis: each counts its rate limits and caches its key look-ups apart.
      REDIS_KEY_PREFIX: prefix,
      RABBITMQ_URL: rabbitmqUrl,
      // Every gas wallet reconciled every 2 s, as the stories were written for (and so an outside top-up is soon booked);
      // between passes the ledger reads only the wallets with transactions of ours, as in production.
      RECONCILE_FULL_PASS_MS: "2000",
      ...Object.assign({}, ...[...chains.values()].map((c) => c.env)),
      ...options.env,
    };
    const restart = async (name: ServiceName) => {
      const previous = services.get(name);
      await previous?.stop();
      // On the ports it had: the API's address (`api`) stays right after a restart.
      const service = await startService(name, env, previous);
      services.set(name, service);
      return service;
    };
    await allStarted((options.services ?? SERVICE_NAMES).map((name) => restart(name)));
    const api = `http://127.0.0.1:${services.get("api-gateway")?.port}`;
    return {
      api,
      db,
      chains,
      services,
      env,
      chain: (chainId) => {
        const chain = chains.get(chainId);
        if (!chain) throw new Error(`no chain ${chainId} in this stack`);
        return chain;
      },
      restart,
      startReplica: async (name, extraEnv = {}) => {
        const replica = await startService(name, { ...env, ...extraEnv });
        replicas.push(replica);
        return replica;
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Waits for every start, then fails with the first failure: what did start is in the stack's maps by
 * then, so the stack's stop ends it too.
 */
async function allStarted(starts: ReadonlyArray<Promise<unknown>>): Promise<void> {
  const failed = (await Promise.allSettled(starts)).find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed) throw failed.reason;
}

/** Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000, intervalMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
