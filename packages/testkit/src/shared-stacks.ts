import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createDb, type Db } from "@sweep/db";
import { parseLogLines, type LogLine, type ServiceName } from "./service-process";
import { startStack, type Stack, type StackOptions } from "./stack";
import { OP_STACK_TEST_CHAIN, configuredChainEnv, connectTestChain, NODE_KINDS, type ChainConnection, type NodeKind } from "./test-chains";

/**
 * Stories that read only their own partner (each makes one with createTestPartner) share one stack per
 * node kind for a jest run. jest runs test files in worker processes, so the stacks live in jest's own
 * process: the project's global setup hosts them (`hostSharedStacks`), each started at the first
 * story's asking, and the stories reach them through the address it leaves in SHARED_STACKS_URL, which
 * the workers inherit.
 */
const SHARED_STACKS_URL = "SHARED_STACKS_URL";

/** How long a stack no story holds runs on, for a story about to ask (sweeps moves from anvil to hardhat). */
const SHARED_STACK_IDLE_MS = 20_000;

/**
 * What every story on a shared stack runs with: 1 s blocks; a local receiver's webhooks (plain http),
 * retried after 500 ms; a partner's burst gathered over 500 ms, up to 3 s on a loaded machine, so fifty
 * sweeps requested at once stay one batch.
 */
export function sharedStackOptions(node: NodeKind): StackOptions {
  const chain = node === "anvil-optimism" ? configuredChainEnv(OP_STACK_TEST_CHAIN) : {};
  return { blockTime: 1, node, env: { ...chain, WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_RETRY_BASE_MS: "500", BATCH_WINDOW_MS: "500", BATCH_WINDOW_MAX_MS: "3000" } };
}

/** The node kinds a shared stack runs on: an L1's (chain 97) and anvil's optimism mode (OP_STACK_TEST_CHAIN, its only chain). */
export const SHARED_STACK_NODES: readonly NodeKind[] = [...NODE_KINDS, "anvil-optimism"];

/** The chain the stories on a shared stack of `node` sweep on. */
export function sharedStackChainId(node: NodeKind): number {
  return node === "anvil-optimism" ? OP_STACK_TEST_CHAIN.chainId : 97;
}

/** What a story needs of a running stack, as the host hands it out. */
interface StackDescriptor {
  api: string;
  databaseUrl: string;
  chains: Array<{ chainId: number; rpcUrl: string }>;
}

/** A stack other stories run on too: a story reads only its own partner's rows and never stops it. */
export interface SharedStack {
  node: NodeKind;
  /** the API's base address */
  api: string;
  /** the stack's database, for the story's own partner */
  db: Db;
  chain(chainId: number): ChainConnection;
  /** the lines a service logged so far (every story's on this stack) */
  logLines(service: ServiceName): Promise<LogLine[]>;
  /** ends this story's connections and its hold: the host stops a stack no story has held for a while */
  disconnect(): Promise<void>;
}

export interface SharedStackHost {
  /** stops the stacks started and ends the host */
  close(): Promise<void>;
}

/**
 * Hosts the shared stacks in this (jest's) process, on a local address named in SHARED_STACKS_URL.
 * A stack starts when a story first asks for its node kind, so a run of anvil's stories alone never
 * starts hardhat's.
 */
export async function hostSharedStacks(): Promise<SharedStackHost> {
  const stacks = new Map<NodeKind, Promise<Stack>>();
  // Stories holding each stack, and the stop due once none does: an idle stack's services and nodes would
  // take CPU from the rest of the run; a story asking later starts it afresh.
  const users = new Map<NodeKind, number>();
  const idleStops = new Map<NodeKind, NodeJS.Timeout>();
  const acquire = (node: NodeKind) => {
    clearTimeout(idleStops.get(node));
    users.set(node, (users.get(node) ?? 0) + 1);
  };
  const release = (node: NodeKind) => {
    const left = Math.max(0, (users.get(node) ?? 0) - 1);
    users.set(node, left);
    if (left > 0) return;
    idleStops.set(
      node,
      setTimeout(() => {
        const started = stacks.get(node);
        stacks.delete(node);
        started?.then((stack) => stack.stop()).catch(() => undefined);
      }, SHARED_STACK_IDLE_MS),
    );
  };
  const stackOf = (node: NodeKind) => {
    const started = stacks.get(node);
    if (started) return started;
    const starting = startStack(sharedStackOptions(node));
    // A failed start fails the stories waiting for it, as a story's own start would fail it; the next story to ask
    // starts the stack afresh, rather than failing on a start that lost a race with a loaded machine long before.
    starting.catch(() => stacks.delete(node));
    stacks.set(node, starting);
    return starting;
  };
  const server: Server = createServer((request, response) => {
    // No connection kept open: a story's worker ends as soon as its tests do.
    response.setHeader("connection", "close");
    const { pathname, searchParams } = new URL(request.url ?? "/", "http://host");
    const [, route, node, , service, what] = pathname.split("/");
    if (route !== "stacks" || !SHARED_STACK_NODES.includes(node as NodeKind)) return void response.writeHead(404).end();
    if (searchParams.has("release")) return void (release(node as NodeKind), response.writeHead(204).end());
    const stack = stackOf(node as NodeKind);
    if (searchParams.has("start")) return void response.writeHead(202).end();
    if (what === undefined) acquire(node as NodeKind);
    stack.then(
      (stack) => {
        if (what === "log") return void response.writeHead(200, { "content-type": "text/plain" }).end(stack.services.get(service as ServiceName)?.output() ?? "");
        const descriptor: StackDescriptor = {
          api: stack.api,
          databaseUrl: stack.env.DATABASE_URL!,
          chains: [...stack.chains.values()].map((c) => ({ chainId: c.chainId, rpcUrl: c.rpcUrl })),
        };
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(descriptor));
      },
      (err: unknown) => response.writeHead(500, { "content-type": "text/plain" }).end(`the shared ${node} stack did not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env[SHARED_STACKS_URL] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    close: async () => {
      for (const stop of idleStops.values()) clearTimeout(stop);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      const started = await Promise.allSettled(stacks.values());
      await Promise.all(started.map((s) => (s.status === "fulfilled" ? s.value.stop() : undefined)));
    },
  };
}

/**
 * Has the run's shared stacks on `nodes` start now, without waiting for them: a story that runs on
 * several node kinds one after the other finds the later ones up when it comes to them.
 */
export async function startSharedStacks(nodes: readonly NodeKind[]): Promise<void> {
  const host = sharedStacksHost();
  await Promise.all(nodes.map(async (node) => (await fetch(`${host}/stacks/${node}?start`)).body?.cancel()));
}

/**
 * The run's shared stack on `node`, once started (a stack takes up to a minute or two on a loaded
 * machine; then this fails, saying so, before the story's own hook times out).
 */
export async function sharedStack(node: NodeKind, timeoutMs = 170_000): Promise<SharedStack> {
  const host = sharedStacksHost();
  const response = await fetch(`${host}/stacks/${node}`, { signal: AbortSignal.timeout(timeoutMs) }).catch((err: unknown) => {
    throw new Error(`the shared ${node} stack was not ready within ${timeoutMs / 1000} s: ${String(err)}`);
  });
  if (!response.ok) throw new Error(await response.text());
  const descriptor = (await response.json()) as StackDescriptor;
  const db = createDb(descriptor.databaseUrl);
  const chains = new Map(descriptor.chains.map((c) => [c.chainId, connectTestChain(c.chainId, c.rpcUrl, sharedStackOptions(node).env)]));
  return {
    node,
    api: descriptor.api,
    db,
    chain: (chainId) => {
      const chain = chains.get(chainId);
      if (!chain) throw new Error(`no chain ${chainId} in the shared ${node} stack`);
      return chain;
    },
    logLines: async (service) => parseLogLines(await (await fetch(`${host}/stacks/${node}/services/${service}/log`)).text()),
    disconnect: async () => {
      for (const chain of chains.values()) chain.disconnect();
      await db.$disconnect();
      (await fetch(`${host}/stacks/${node}?release`)).body?.cancel();
    },
  };
}

function sharedStacksHost(): string {
  const host = process.env[SHARED_STACKS_URL];
  if (!host) throw new Error(`no shared stacks in this run (${SHARED_STACKS_URL} is not set): run the story in jest's "stories on shared stacks" project, whose global setup hosts them`);
  return host;
}
