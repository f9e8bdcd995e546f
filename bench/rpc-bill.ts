import { migrateDatabase } from "@sweep/db";
import { authorizationBody, createTestPartner, eventually, readMetrics, startStack, type Stack } from "@sweep/testkit";
import { Wallet, parseEther } from "ethers";

// The RPC bill: the JSON-RPC calls the services make to the chains, read from each service's
// sweep_rpc_calls_total, on both anvil chains making a block every RPC_BILL_BLOCK_SECONDS (2 s: a
// real chain's pace, scaled). First an idle stack with RPC_BILL_WALLETS funded gas wallets, for
// RPC_BILL_IDLE_SECONDS, with the ledger's full pass every RPC_BILL_FULL_PASS_MS (one minute, for
// the default ten scaled to the window); then a burst of RPC_BILL_SWEEPS first-time sweeps of one
// partner on chain 97. Prints calls by service and method: per block and per idle gas wallet-hour,
// then per swept item. It reads nothing but the services' counters, so it measures any tree that
// exports them. Prints figures; asserts nothing.

const BLOCK_SECONDS = Number(process.env.RPC_BILL_BLOCK_SECONDS ?? 2);
const WALLETS = Number(process.env.RPC_BILL_WALLETS ?? 20);
const IDLE_SECONDS = Number(process.env.RPC_BILL_IDLE_SECONDS ?? 120);
const FULL_PASS_MS = Number(process.env.RPC_BILL_FULL_PASS_MS ?? 60_000);
const SWEEPS = Number(process.env.RPC_BILL_SWEEPS ?? 50);
const CHAIN_IDS = [11155111, 97];
const SWEEP_CHAIN = 97;
/** the full pass a production ledger makes (RECONCILE_FULL_PASS_MS's default), for the per-hour projection */
const PRODUCTION_FULL_PASS_MS = 600_000;
/** methods a service calls once per gas wallet (the rest are per chain: the head, or per transaction) */
const PER_WALLET = new Set(["eth_getBalance", "eth_getTransactionCount"]);

type Calls = Map<string, number>;

async function main() {
  process.env.TEMPLATE_DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/sweep_template";
  await migrateDatabase(process.env.TEMPLATE_DATABASE_URL);
  const stack = await startStack({ blockTime: BLOCK_SECONDS, env: { LOG_LEVEL: "warn", RECONCILE_FULL_PASS_MS: String(FULL_PASS_MS) } });
  try {
    console.log(`\nRPC bill: anvil with ${BLOCK_SECONDS} s blocks on chains ${CHAIN_IDS.join(" and ")}, ${WALLETS} gas wallets`);
    const partners = [];
    for (let i = 0; i < WALLETS; i++) {
      const partner = await createTestPartner(stack.db, `rpc bill ${i}`);
      for (const chainId of CHAIN_IDS) await stack.chain(chainId).setBalance(partner.gasWallet, parseEther("100"));
      partners.push(partner);
    }
    const sweeper = partners[0]!;
    const headers = { ...sweeper.auth, "content-type": "application/json" };
    const hotWallet = Wallet.createRandom().address;
    const registered = await fetch(`${stack.api}/v1/hot-wallets`, { method: "POST", headers, body: JSON.stringify({ chain_id: SWEEP_CHAIN, address: hotWallet }) });
    const { delegate } = (await registered.json()) as { delegate: string };
    await eventually("the hot wallet to be active", async () => {
      const res = await fetch(`${stack.api}/v1/hot-wallets`, { headers });
      const list = (await res.json()) as { hot_wallets: Array<{ status: string }> };
      return list.hot_wallets[0]?.status === "active" || undefined;
    });
    const owners = Array.from({ length: SWEEPS }, () => Wallet.createRandom());
    await Promise.all(owners.map((o) => stack.chain(SWEEP_CHAIN).mintUsdt(o.address, 1_000_000n)));
    // What start-up, the deploy and the funding set going is over (each new wallet reconciled once) before the idle window.
    await new Promise((r) => setTimeout(r, 3 * BLOCK_SECONDS * 1000 + 2_000));

    const heads = async () => Promise.all(CHAIN_IDS.map((id) => stack.chain(id).provider.getBlockNumber()));
    const [idleBefore, headsBefore, idleStarted] = [await rpcCalls(stack), await heads(), Date.now()];
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const [idleAfter, headsAfter, idleEnded] = [await rpcCalls(stack), await heads(), Date.now()];
    const hours = (idleEnded - idleStarted) / 3_600_000;
    const idle = difference(idleBefore, idleAfter);
    console.log(`\nIdle for ${((idleEnded - idleStarted) / 1000).toFixed(0)} s, ledger full pass every ${FULL_PASS_MS / 1000} s:`);
    CHAIN_IDS.forEach((chainId, i) => {
      const blocks = headsAfter[i]! - headsBefore[i]!;
      const ofChain = [...idle].filter(([key]) => key.startsWith(`${chainId} `));
      const headReads = ofChain.filter(([key]) => key.endsWith(" eth_blockNumber")).reduce((sum, [, n]) => sum + n, 0);
      const total = ofChain.reduce((sum, [, n]) => sum + n, 0);
      const perWallet = ofChain.filter(([key]) => PER_WALLET.has(key.split(" ")[2]!)).reduce((sum, [, n]) => sum + n, 0);
      console.log(
        `chain ${chainId}: ${blocks} blocks, ${total} calls (${(total / blocks).toFixed(2)} per block), head reads ${(headReads / blocks).toFixed(2)} per block; ` +
          `per idle gas wallet-hour: ${(total / WALLETS / hours).toFixed(1)} calls in all, ${(perWallet / WALLETS / hours).toFixed(1)} of them per-wallet reads, ` +
          `${((perWallet / WALLETS / hours) * (FULL_PASS_MS / 3_600_000)).toFixed(2)} per wallet each ${FULL_PASS_MS / 1000} s ` +
          `(a ledger that reads idle wallets only in its full pass: ${((perWallet / WALLETS / hours) * (FULL_PASS_MS / PRODUCTION_FULL_PASS_MS)).toFixed(1)} per wallet-hour with the ${PRODUCTION_FULL_PASS_MS / 60_000}-minute default)`,
      );
    });
    printByServiceAndMethod(idle, (n) => `${(n / hours).toFixed(0)} per hour`);

    const callsBefore = await rpcCalls(stack);
    const posted = await Promise.all(
      owners.map(async (owner) => {
        const body = { chain_id: SWEEP_CHAIN, hot_wallet: hotWallet, account: owner.address, token: "USDT", authorization: authorizationBody(owner.authorizeSync({ address: delegate, nonce: 0n, chainId: BigInt(SWEEP_CHAIN) })) };
        const res = await fetch(`${stack.api}/v1/sweeps`, { method: "POST", headers, body: JSON.stringify(body) });
        return ((await res.json()) as { id: string }).id;
      }),
    );
    const ended = await eventually(
      "every sweep to end",
      async () => {
        const rows = await stack.db.sweep.findMany({ where: { id: { in: posted } } });
        return rows.every((r) => r.status !== "queued" && r.status !== "processing") ? rows : undefined;
      },
      600_000,
      500,
    );
    // The ledger's reconciliation of what the sweeps spent comes after: a few blocks more belong to the burst.
    await new Promise((r) => setTimeout(r, 3 * BLOCK_SECONDS * 1000));
    const burst = difference(callsBefore, await rpcCalls(stack));
    const swept = ended.filter((r) => r.status === "swept").length;
    const total = [...burst.values()].reduce((sum, n) => sum + n, 0);
    console.log(`\nA burst of ${SWEEPS} first-time sweeps on chain ${SWEEP_CHAIN}: ${swept} swept, ${total} calls on both chains while they ran (${(total / Math.max(1, swept)).toFixed(2)} per swept item)`);
    printByServiceAndMethod(burst, (n) => `${(n / Math.max(1, swept)).toFixed(2)} per swept item`);
  } finally {
    await stack.stop();
  }
}

/** Every service's calls so far, by `<chain> <service> <method>`. */
async function rpcCalls(stack: Stack): Promise<Calls> {
  const calls: Calls = new Map();
  for (const [name, service] of stack.services) {
    for (const chainId of CHAIN_IDS) {
      for (const sample of (await readMetrics(service.metricsPort)).find("sweep_rpc_calls_total", { chain_id: String(chainId) })) {
        const key = `${chainId} ${name} ${sample.labels.method}`;
        calls.set(key, (calls.get(key) ?? 0) + sample.value);
      }
    }
  }
  return calls;
}

function difference(before: Calls, after: Calls): Calls {
  return new Map([...after].map(([key, n]) => [key, n - (before.get(key) ?? 0)] as const).filter(([, n]) => n > 0));
}

function printByServiceAndMethod(calls: Calls, rate: (n: number) => string) {
  const byService = new Map<string, number>();
  for (const [key, n] of calls) {
    const service = key.split(" ").slice(0, 2).join(" ");
    byService.set(service, (byService.get(service) ?? 0) + n);
  }
  for (const [service, n] of [...byService].sort()) {
    console.log(`  chain ${service}: ${n} (${rate(n)})`);
    for (const [key, m] of [...calls].filter(([k]) => k.startsWith(`${service} `)).sort((a, b) => b[1] - a[1])) console.log(`    ${key.split(" ")[2]}: ${m} (${rate(m)})`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
