/**
 * What each service reads from its environment, taken from the code itself, for the tests that keep
 * docker-compose.yml and deploy/ true to it: the zod schema of its config.ts, and the per-chain
 * variables its configuration loader reads through @sweep/chains' loadChainConfigs (RPC_URL_<id>, CONFIRMATIONS_<id>,
 * CLASSIC_GAS_<id>_<TICKER>, TREASURY_ADDRESS_<id>, ...), found by running it on a recording environment rather than listed here.
 */
import { rpcUrlsFor, type ChainInfo } from "../packages/chains/src";
import { ConfigError } from "@sweep/common";
import { serviceNodeArgs, type ServiceName } from "@sweep/service-bundles";
import { gatewayEnv, loadGatewayConfig } from "../services/api-gateway/src/config";
import { batcherEnv, loadBatcherConfig } from "../services/batcher/src/config";
import { chainSenderEnv, loadChainSenderConfig } from "../services/chain-sender/src/config";
import { ledgerEnv, loadLedgerConfig } from "../services/ledger/src/config";
import { loadWebhookDispatcherConfig, webhookDispatcherEnv } from "../services/webhook-dispatcher/src/config";

export { repoRoot } from "@sweep/db";
export type { ServiceName } from "@sweep/testkit";
type Env = Record<string, string>;

/** A variable's zod schema, as far as these checks use it. */
interface VariableSchema {
  parse(value: unknown): unknown;
  safeParse(value: unknown): { success: boolean };
}

interface Service {
  schema: { shape: Record<string, VariableSchema> };
  /** what its main.ts does with the environment before it connects anywhere; returns the chains it reaches */
  start(env: Env): ChainInfo[];
}

// Every service that talks to a chain reads its chains' variables through loadChainConfigs, inside its configuration loader.
export const services: Record<ServiceName, Service> = {
  "api-gateway": { schema: gatewayEnv, start: (env) => loadGatewayConfig(env).chains },
  batcher: { schema: batcherEnv, start: (env) => loadBatcherConfig(env).chains },
  "chain-sender": { schema: chainSenderEnv, start: (env) => loadChainSenderConfig(env).chains },
  ledger: { schema: ledgerEnv, start: (env) => loadLedgerConfig(env).chains },
  "webhook-dispatcher": {
    schema: webhookDispatcherEnv,
    start: (env) => {
      loadWebhookDispatcherConfig(env);
      return [];
    },
  },
};

/** The service whose main.ts a container runs (`node --import tsx <path>`), or undefined for another entry point. */
export function serviceOfEntry(args: readonly string[] | undefined): ServiceName | undefined {
  const match = /^services\/([a-z-]+)\/dist\/main\.js$/.exec(args?.at(-1) ?? "");
  if (!match || !(match[1]! in services)) return undefined;
  const service = match[1] as ServiceName;
  // node's arguments exactly as pnpm start and the tests run the service: its bundle, source maps on.
  return JSON.stringify(args) === JSON.stringify(serviceNodeArgs(service, ".")) ? service : undefined;
}

/** The environment's value of a variable of the schema, its default when unset (undefined: unset and no default). */
export function effectiveValue(service: ServiceName, env: Env, name: string): unknown {
  const field = services[service].schema.shape[name];
  if (!field) throw new Error(`${service} has no variable ${name}`);
  return field.parse(env[name] || undefined);
}

/** Variables of the schema that a start cannot do without: neither a default nor optional. */
export function requiredVariables(service: ServiceName): string[] {
  const shape = services[service].schema.shape;
  return Object.keys(shape).filter((name) => !shape[name]!.safeParse(undefined).success);
}

/** The port variables of a service (PORT, HEALTH_PORT, METRICS_PORT, ...), with their values in this environment. */
export function portVariables(service: ServiceName, env: Env): Map<string, number> {
  const names = Object.keys(services[service].schema.shape).filter((name) => /(^|_)PORT$/.test(name));
  return new Map(names.map((name) => [name, Number(effectiveValue(service, env, name))]));
}

/** Where /metrics is served: the management port where the service has one, else its health port. */
export function metricsPortVariable(service: ServiceName): string {
  const shape = services[service].schema.shape;
  if ("METRICS_PORT" in shape) return "METRICS_PORT";
  if ("HEALTH_PORT" in shape) return "HEALTH_PORT";
  throw new Error(`${service} serves /metrics on no port of its own`);
}

/**
 * The variables of `names` that the service does not read. A name is read when the schema has it, when the
 * start looks it up (recorded on an environment holding only the schema's variables, so that a scan of the
 * whole environment records nothing), or when the start rejects a malformed value of it (variables found by
 * a pattern over the environment, such as TREASURY_ADDRESS_<id>, are validated there).
 */
export function unreadVariables(service: ServiceName, env: Env, names: string[]): string[] {
  const { schema, start } = services[service];
  const schemaOnly = Object.fromEntries(Object.entries(env).filter(([name]) => name in schema.shape));
  const lookedUp = new Set<string>();
  const recording = new Proxy(schemaOnly, {
    get: (target, name) => {
      if (typeof name === "string") lookedUp.add(name);
      return target[name as string];
    },
  });
  start(recording);
  const rejectsMalformed = (name: string) => {
    try {
      start({ ...schemaOnly, [name]: "\u0000malformed" });
      return false;
    } catch (err) {
      return (err as Error).message.includes(name);
    }
  };
  return names.filter((name) => !(name in schema.shape) && !lookedUp.has(name) && !rejectsMalformed(name));
}

/**
 * Starts the service's configuration with the literal values; variables whose values the deployment keeps
 * elsewhere (a Secret) are left out, and a complaint about one of those alone is no failure. Returns the
 * chains it reaches, or undefined when only such a complaint stopped it.
 */
export function startWith(service: ServiceName, literals: Env, heldElsewhere: ReadonlySet<string> = new Set()): ChainInfo[] | undefined {
  try {
    return services[service].start(literals);
  } catch (err) {
    const complaints = err instanceof ConfigError ? err.problems : [(err as Error).message];
    if (complaints.every((complaint) => [...heldElsewhere].some((name) => complaint.includes(name)))) return undefined;
    throw err;
  }
}

/** The variable naming the node of a chain, as the code reads it (RPC_URL_<id>). */
export function nodeVariable(chain: ChainInfo): string {
  const lookedUp: string[] = [];
  const recording = new Proxy({} as Env, {
    get: (_, name) => {
      lookedUp.push(String(name));
      return undefined;
    },
  });
  try {
    rpcUrlsFor(chain, recording);
  } catch {
    // a chain without a local devnet insists on its variable: it was read all the same
  }
  if (lookedUp.length !== 1) throw new Error(`rpcUrlsFor read ${lookedUp.join(", ")} for chain ${chain.chainId}`);
  return lookedUp[0]!;
}
