import { migrateDatabase } from "@sweep/db";
import { authorizationBody, createTestPartner, eventually, readMetrics, startStack, type Stack } from "@sweep/testkit";
import { Wallet, parseEther } from "ethers";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

// End to end on anvil with 1 s blocks, in two phases through the API: a steady stream of
// first-time sweeps (each with its authorization), then repeat sweeps of the same addresses (no
// authorization: the steady state of a deposit address). Figures per phase: sweeps per second,
// POST latency, POST-to-swept p50/p99, blocks from arrival to inclusion, gas per sweep by kind,
// each transaction's timeline, and the JSON-RPC calls the services made to the chain (per swept item
// and per second: what a provider plan must allow). Prints figures; asserts nothing.

// The rate issue 28 measures POST → swept at; BENCH_E2E_RATE=100 for the earlier figures.
const RATE = Number(process.env.BENCH_E2E_RATE ?? 1000);
const REPEAT_RATE = Number(process.env.BENCH_E2E_REPEAT_RATE ?? RATE);
const SECONDS = Number(process.env.BENCH_E2E_SECONDS ?? 3);
const CHAIN_ID = 97;
/** how long the stack rests, with a partner and an active hot wallet, while its JSON-RPC calls and CPU are counted */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
/** where to write each service's log (info level: per-sweep debug lines would slow the run) for a closer look; none by default */
const LOG_DIR = process.env.BENCH_LOG_DIR;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

interface SweepBody {
  chain_id: number;
  hot_wallet: string;
  account: string;
  token: string;
  authorization?: ReturnType<typeof authorizationBody>;
}

async function main() {
  process.env.TEMPLATE_DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/sweep_template";
  await migrateDatabase(process.env.TEMPLATE_DATABASE_URL);
  // The ledger's full pass at its production default (10 min): the test stacks read every gas wallet every 2 s for
  // their stories, which at rest is work per wallet each second that a deployed stack does not do.
  const stack = await startStack({ blockTime: 1, env: { LOG_LEVEL: LOG_DIR ? "info" : "warn", RECONCILE_FULL_PASS_MS: "600000" } });
  try {
    const chain = stack.chain(CHAIN_ID);
    const partner = await createTestPartner(stack.db, "bench e2e");
    await chain.setBalance(partner.gasWallet, parseEther("1000"));
    const headers = { ...partner.auth, "content-type": "application/json" };

    const hotWallet = Wallet.createRandom().address;
    const registered = await fetch(`${stack.api}/v1/hot-wallets`, { method: "POST", headers, body: JSON.stringify({ chain_id: CHAIN_ID, address: hotWallet }) });
    const { delegate } = (await registered.json()) as { delegate: string };
    await eventually("the hot wallet to be active", async () => {
      const res = await fetch(`${stack.api}/v1/hot-wallets`, { headers });
      const list = (await res.json()) as { hot_wallets: Array<{ status: string }> };
      return list.hot_wallets[0]?.status === "active" || undefined;
    });

    // Enough addresses for both phases: the first-time phase delegates every one of them.
    const owners = Array.from({ length: Math.max(RATE, REPEAT_RATE) * SECONDS }, () => Wallet.createRandom());
    const sweepOf = (owner: { address: string }): SweepBody => ({ chain_id: CHAIN_ID, hot_wallet: hotWallet, account: owner.address, token: "USDT" });

    await Promise.all(owners.map((o) => chain.mintUsdt(o.address, 1_000_000n)));
    // What the services ask of the chain with nothing to do: the floor a provider plan must allow.
    const [idleBefore, cpuBefore] = await Promise.all([rpcCalls(stack), cpuSeconds(stack)]);
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const [idleAfter, cpuAfter] = await Promise.all([rpcCalls(stack), cpuSeconds(stack)]);
    const idle = [...idleAfter].reduce((sum, [key, n]) => sum + n - (idleBefore.get(key) ?? 0), 0);
    console.log(`JSON-RPC calls to chain ${CHAIN_ID} while idle: ${(idle / IDLE_SECONDS).toFixed(1)} per second (over ${IDLE_SECONDS} s)`);
    printIdleCpu(cpuBefore, cpuAfter, IDLE_SECONDS);
    const firstTime = owners.map((owner) => ({ ...sweepOf(owner), authorization: authorizationBody(owner.authorizeSync({ address: delegate, nonce: 0n, chainId: BigInt(CHAIN_ID) })) }));
    await runPhase(stack, headers, `${firstTime.length} first-time token sweeps posted at ${RATE}/s`, firstTime, RATE);

    const repeaters = owners.slice(0, REPEAT_RATE * SECONDS);
    await Promise.all(repeaters.map((o) => chain.mintUsdt(o.address, 1_000_000n)));
    await runPhase(stack, headers, `${repeaters.length} repeat token sweeps of the same addresses posted at ${REPEAT_RATE}/s`, repeaters.map(sweepOf), REPEAT_RATE);

    if (LOG_DIR) {
      mkdirSync(LOG_DIR, { recursive: true });
      for (const [name, service] of stack.services) writeFileSync(path.join(LOG_DIR, `${name}.log`), service.output());
      console.log(`service logs: ${LOG_DIR}`);
    }
  } finally {
    await stack.stop();
  }
}

/** Posts the bodies at `rate` per second, waits for every sweep to end, and prints the figures. */
/** What a failed fetch met: the connection's error code (ECONNRESET…) where undici names one. */
function connectionError(err: unknown): string {
  const cause = (err as { cause?: { code?: string } }).cause;
  return cause?.code ?? (err instanceof Error ? err.message : String(err));
}

async function runPhase(stack: Stack, headers: Record<string, string>, title: string, bodies: SweepBody[], rate: number) {
  const chain = stack.chain(CHAIN_ID);
  const sent = new Map<string, number>();
  const postLatencies: number[] = [];
  const started = Date.now();
  const posts: Promise<void>[] = [];
  /** POSTs not accepted (202), by status and code or by the connection's error */
  const unanswered = new Map<string, number>();
  const notAccepted = (why: string) => void unanswered.set(why, (unanswered.get(why) ?? 0) + 1);
  const callsBefore = await rpcCalls(stack);
  for (let i = 0; i < bodies.length; i++) {
    const wait = started + (i * 1000) / rate - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const at = Date.now();
    posts.push(
      fetch(`${stack.api}/v1/sweeps`, { method: "POST", headers, body: JSON.stringify(bodies[i]) }).then(
        async (res) => {
          const body = (await res.json().catch(() => ({}))) as { id?: string; error?: { code: string } };
          if (res.status !== 202 || body.id === undefined) return notAccepted(`${res.status} ${body.error?.code ?? ""}`.trim());
          postLatencies.push(Date.now() - at);
          sent.set(body.id, at);
        },
        // An overloaded gateway resets connections whose request it could not read in HTTP_HEADERS_TIMEOUT_MS: counted, not fatal.
        (err: unknown) => notAccepted(connectionError(err)),
      ),
    );
  }
  await Promise.all(posts);
  const ids = [...sent.keys()];
  const ended = await eventually(
    "every sweep to end",
    async () => {
      const rows = await stack.db.sweep.findMany({ where: { id: { in: ids } } });
      return rows.every((r) => r.status !== "queued" && r.status !== "processing") ? rows : undefined;
    },
    600_000,
    500,
  );
  const finished = Math.max(...ended.map((r) => r.updatedAt.getTime()));
  const callsAfter = await rpcCalls(stack);
  const swept = ended.filter((r) => r.status === "swept");
  const latencies = swept.map((r) => r.updatedAt.getTime() - sent.get(r.id)!).sort((a, b) => a - b);
  postLatencies.sort((a, b) => a - b);
  const txs = new Set(swept.map((r) => r.txHash!));

  const blockAt = new Map<string, number>();
  for (const hash of txs) blockAt.set(hash, (await chain.provider.getTransactionReceipt(hash))!.blockNumber);
  // Every sweep's search walks the same few blocks: read each block's time once.
  const blockTimes = new Map<number, number>();
  const blockTimeMs = async (n: number) => {
    if (!blockTimes.has(n)) blockTimes.set(n, (await chain.provider.getBlock(n))!.timestamp * 1000);
    return blockTimes.get(n)!;
  };
  const head = await chain.provider.getBlockNumber();
  /** the first block mined after the sweep arrived */
  const firstBlockAfter = async (ms: number) => {
    let lo = 0;
    let hi = head;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((await blockTimeMs(mid)) >= ms) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const blocksToInclusion: number[] = [];
  for (const r of swept) blocksToInclusion.push(blockAt.get(r.txHash!)! - (await firstBlockAfter(sent.get(r.id)!)) + 1);
  blocksToInclusion.sort((a, b) => a - b);
  const byKind = new Map<string, bigint[]>();
  for (const r of swept) byKind.set(r.kind!, [...(byKind.get(r.kind!) ?? []), r.gas!]);

  console.log(`\nEnd to end on anvil, 1 s blocks: ${title}`);
  console.log(`swept ${swept.length}, other outcomes ${ended.length - swept.length}, in ${txs.size} transactions`);
  if (unanswered.size > 0) console.log(`POSTs not accepted (left out of the figures): ${[...unanswered].map(([why, n]) => `${n} ${why}`).join(", ")}`);
  console.log(`sweeps per second (first POST to last swept): ${((swept.length * 1000) / (finished - started)).toFixed(1)}`);
  console.log(`POST answered: p50 ${percentile(postLatencies, 50)} ms, p99 ${percentile(postLatencies, 99)} ms`);
  console.log(`POST to swept: p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms`);
  console.log(`blocks from arrival to inclusion: p50 ${percentile(blocksToInclusion, 50)}, p99 ${percentile(blocksToInclusion, 99)}, max ${blocksToInclusion[blocksToInclusion.length - 1]}`);
  for (const [kind, gas] of byKind) console.log(`gas per sweep, ${kind}: ${gas.reduce((a, b) => a + b, 0n) / BigInt(gas.length)} (mean of ${gas.length})`);
  printRpcBudget(callsBefore, callsAfter, swept.length, (finished - started) / 1000);

  // Where the time goes: each transaction's steps, in ms after the phase's first POST.
  const transactions = await stack.db.chainTransaction.findMany({ where: { hash: { in: [...txs] } }, include: { batch: true }, orderBy: { nonce: "asc" } });
  console.log("\nEach transaction, in ms after the first POST (block times are whole seconds):");
  console.log("| nonce | sweeps | first posted | last posted | claimed | signed | broadcast | in block | confirmed | last settled |");
  console.log("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
  const after = (at: number | undefined) => (at === undefined ? "" : String(at - started));
  for (const t of transactions) {
    const carried = swept.filter((r) => r.txHash === t.hash);
    const posted = carried.map((r) => sent.get(r.id)!);
    const settled = Math.max(...carried.map((r) => r.updatedAt.getTime()));
    const inBlock = await blockTimeMs(blockAt.get(t.hash)!);
    const steps = [Math.min(...posted), Math.max(...posted), t.batch?.createdAt.getTime(), t.createdAt.getTime(), t.broadcastAt?.getTime(), inBlock, t.minedAt?.getTime(), settled];
    console.log(`| ${t.nonce} | ${carried.length} | ${steps.map(after).join(" | ")} |`);
  }
}

/** JSON-RPC calls to the chain so far, per service and method, from each service's sweep_rpc_calls_total. */
/** Each service's CPU time so far (user and system), from its process_cpu_seconds_total. */
async function cpuSeconds(stack: Stack): Promise<Map<string, number>> {
  const seconds = new Map<string, number>();
  for (const [name, service] of stack.services) seconds.set(name, (await readMetrics(service.metricsPort)).find("process_cpu_seconds_total").reduce((sum, s) => sum + s.value, 0));
  return seconds;
}

/** The share of one core each service used while the stack rested, and their total (the chains' nodes are not counted). */
function printIdleCpu(before: Map<string, number>, after: Map<string, number>, seconds: number) {
  const shares = [...after].map(([name, cpu]) => [name, (100 * (cpu - (before.get(name) ?? 0))) / seconds] as const);
  console.log(`\nCPU at rest over ${seconds} s (one partner, one active hot wallet), % of one core`);
  console.log("| service | % of a core |");
  console.log("|---|--:|");
  for (const [name, share] of shares) console.log(`| ${name} | ${share.toFixed(1)} |`);
  console.log(`| all services (chains' nodes not counted) | ${shares.reduce((sum, [, share]) => sum + share, 0).toFixed(1)} |`);
  console.log("aim: under 5% of a core in total");
}

async function rpcCalls(stack: Stack): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  for (const [name, service] of stack.services) {
    for (const sample of (await readMetrics(service.metricsPort)).find("sweep_rpc_calls_total", { chain_id: String(CHAIN_ID) })) {
      const key = `${name} ${sample.labels.method}`;
      calls.set(key, (calls.get(key) ?? 0) + sample.value);
    }
  }
  return calls;
}

function printRpcBudget(before: Map<string, number>, after: Map<string, number>, swept: number, seconds: number) {
  const made = [...after].map(([key, n]) => [key, n - (before.get(key) ?? 0)] as const).filter(([, n]) => n > 0);
  const total = made.reduce((sum, [, n]) => sum + n, 0);
  console.log(`JSON-RPC calls to chain ${CHAIN_ID}: ${total} (${(total / Math.max(1, swept)).toFixed(2)} per swept item, ${(total / seconds).toFixed(1)} per second over the phase)`);
  for (const [key, n] of made.sort((a, b) => b[1] - a[1])) console.log(`  ${key}: ${n} (${(n / Math.max(1, swept)).toFixed(2)} per swept item)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
