import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { contractAt, decodeSweepOutcomes } from "@sweep/contracts";
import {
  QUOTA_REPLIES,
  activeHotWallet,
  authorizationBody,
  createTestPartner,
  eventually,
  fundedDeposit,
  matchSweeps,
  minedNonceBreaches,
  nonceConflicts,
  partnerApi,
  readMetrics,
  seedOf,
  settledGasWallet,
  startRpcFaultProxy,
  startStack,
  untilEnded,
  type QuotaReply,
  type RpcFaultProxy,
  type ServiceName,
  type Stack,
  type TestPartner,
} from "@sweep/testkit";
import { Wallet, ZeroAddress, parseEther, type BaseWallet } from "ethers";

// A partner sweeps on chain 97 through two hosted providers' endpoints (RPC_URL_97 lists both),
// fault proxies in front of the chain's anvil (1 s blocks), with the whole suite (services as
// processes, Postgres, RabbitMQ, Redis, the compiled contracts) reading and sending through them.
// The first is load-balanced over three backends, one of which lags the head by a few blocks the
// whole time, and every answer comes in other encodings than anvil's; the second is down (connection
// refused for 20 s, later 503 to everything for 15 s) for part of the story. First-time sweeps go
// through 429s, 5xx pages, requests never answered and a backend without eth_simulateV1, and the
// native coin of some of those addresses is swept as soon as their first sweep is; repeat sweeps and
// revocations while the first endpoint lacks eth_simulateV1 for a while and broadcasts' answers are
// lost on the way back; then more first-time and repeat sweeps and two revocations while the first
// endpoint answers providers' quota refusals, one kind after another (HTTP 402, 403 and 429, -32005
// in an HTTP 200, Alchemy's and QuickNode's capacity answers, one batch member refused). The partner posts a deposit once it is a few blocks deep (deeper than the
// lag), as a careful partner waits for confirmations; what the services do right after their own
// transactions (a sweep checked right after their own sweep or revocation of its address settled)
// is theirs to get right.
// Throughout, the first endpoint answers each member of a JSON-RPC batch from a backend of its own
// (the lagging one among them), in any order, as hosted providers do.
// Every sweep and revocation must end as it should, each deposit swept once on chain, no nonce
// given up while its transaction was mined, and the ledger must equal the chain. Last, a second
// partner's sweep batch is given up wrongly (both endpoints withhold its gas wallet's transactions
// while the chain counts them) and restored once they answer again: swept, booked once, ledger = chain. RPC_FAULTS_SEED
// replays a run's faults.

const CHAIN_ID = 97;
const SEED = seedOf(process.env.RPC_FAULTS_SEED, undefined, "RPC_FAULTS_SEED");
/** How far the lagging backend is behind the head: a few 1 s blocks, as a provider's slow node is. */
const LAG = 5;
const FUNDING = parseEther("100");
const FIRST_TIME = 12;
const SERVICES: ServiceName[] = ["ledger", "chain-sender", "batcher", "api-gateway", "webhook-dispatcher"];

interface Work {
  id: string;
  status: string;
  reason?: string;
  kind?: string;
  swept_amount?: string;
  tx_hash?: string;
}

describe("sweeps through a load-balanced provider endpoint that lags, throttles, fails, times out, lacks methods and encodes differently", () => {
  let stack: Stack;
  let proxy: RpcFaultProxy;
  /** the second provider */
  let second: RpcFaultProxy;
  let apiBase: string;
  let partner: TestPartner;
  const hotWallet = Wallet.createRandom().address;
  let delegate: string;
  /** what the proxy was told to do, in order, for the figures */
  const schedule: string[] = [];
  const swept: { owner: BaseWallet; native: boolean }[] = [];

  const api = partnerApi(() => apiBase, () => partner.auth);
  const chain = () => stack.chain(CHAIN_ID);
  const sweepEnds = (id: string) => untilEnded<Work>(api, "/v1/sweeps", id, 60_000);
  const revocationEnds = (id: string) => untilEnded<Work>(api, "/v1/revocations", id, 60_000);
  const postSweep = async (body: Record<string, unknown>) => {
    const res = await api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, ...body });
    expect(res.status).toBe(202);
    return res.body.id as string;
  };
  const faults = async (what: string, apply: () => void | Promise<void>) => {
    schedule.push(what);
    await apply();
  };
  /** Until the chain's head is past its current block by more than the lag: every backend sees what was mined so far. */
  const deeperThanLag = async () => {
    const block = await chain().provider.getBlockNumber();
    await eventually("what was mined to be confirmed", async () => ((await chain().provider.getBlockNumber()) > block + LAG ? true : undefined), 30_000, 200);
  };

  /** The services' warnings and errors, to show with a failure. */
  const serviceComplaints = () =>
    [...stack.services.values()].flatMap((s) => s.logLines().filter((l) => l.level === "warn" || l.level === "error").map((l) => `${s.name}: ${JSON.stringify(l)}`));

  beforeAll(async () => {
    // The chains first, with no service; then the proxy in front of chain 97's node, and the services pointed at it.
    stack = await startStack({ blockTime: 1, services: [] });
    proxy = await startRpcFaultProxy({ target: chain().rpcUrl, backends: 3, seed: SEED });
    second = await startRpcFaultProxy({ target: chain().rpcUrl, backends: 1, seed: SEED + 1 });
    Object.assign(stack.env, { [`RPC_URL_${CHAIN_ID}`]: `${proxy.url},${second.url}`, RPC_TIMEOUT_MS: "2000", BALANCE_RPC_TIMEOUT_MS: "2000" });
    await faults(`throughout: the first endpoint's backend 1 lags ${LAG} blocks; each batch's members answered by different backends (the lagging one among them) in any order; its answers with upper-case quantities, EIP-55 addresses, geth's optional fields left out, batches reordered`, () => {
      proxy.lag(LAG, { backend: 1 });
      proxy.splitBatches();
      proxy.encodings({ upperCaseQuantities: true, checksumAddresses: true, omitOptionalFields: true, reorderBatches: true });
    });
    await Promise.all(SERVICES.map((name) => stack.restart(name)));
    apiBase = `http://127.0.0.1:${stack.services.get("api-gateway")!.port}`;
    partner = await createTestPartner(stack.db, "rpc faults");
    await chain().setBalance(partner.gasWallet, FUNDING);
    // A partner registers its hot wallet once its funding is confirmed.
    await deeperThanLag();
    try {
      delegate = (await activeHotWallet(api, CHAIN_ID, hotWallet)).delegate;
    } catch (err) {
      // The story's seed and what the services complained of, for the one reading CI's log.
      throw new Error(`${String(err)} (RPC_FAULTS_SEED=${SEED} replays it)\n${serviceComplaints().slice(-40).join("\n")}`);
    }
  }, 180_000);

  afterAll(async () => {
    // RPC_FAULTS_LOG_DIR keeps the services' logs.
    const logDir = process.env.RPC_FAULTS_LOG_DIR;
    if (logDir && stack) {
      mkdirSync(logDir, { recursive: true });
      for (const service of stack.services.values()) writeFileSync(path.join(logDir, `${service.name}.log`), service.output());
    }
    await stack?.stop();
    await proxy?.close();
    await second?.close();
  }, 60_000);

  it("sweeps first-time deposits through 429s, 5xx pages, unanswered requests and a backend without eth_simulateV1, and rejects what is wrong", async () => {
    const secondBack = setTimeout(() => void second.clear("refuse"), 20_000);
    await faults("first-time sweeps: the second endpoint refuses connections for 20 s; the first answers 429 to 10% of requests, its backend 2 answers 503 to 5% and lacks eth_simulateV1 (-32004), its backend 0 holds its next 3 requests", async () => {
      await second.refuseConnections();
      proxy.httpErrors(429, { fraction: 0.1 });
      proxy.httpErrors(503, { fraction: 0.05 }, { backend: 2 });
      proxy.dropMethod("eth_simulateV1", "-32004", { backend: 2 });
      proxy.timeouts({ next: 3 }, { backend: 0 });
    });
    try {
      const deposits = await Promise.all(
        Array.from({ length: FIRST_TIME }, async (_, i) => {
          const deposit = await fundedDeposit(chain(), delegate, BigInt(1_000_000 + i));
          if (i % 3 === 0) await chain().setBalance(deposit.owner.address, parseEther("0.01"));
          return deposit;
        }),
      );
      const empty = await fundedDeposit(chain(), delegate, 0n);
      const never = Wallet.createRandom();
      await chain().mintUsdt(never.address, 5n);
      await deeperThanLag();

      const ids = await Promise.all(deposits.map((d) => postSweep({ account: d.owner.address, token: "USDT", authorization: d.authorization })));
      const emptyId = await postSweep({ account: empty.owner.address, token: "USDT", authorization: empty.authorization });
      const neverId = await postSweep({ account: never.address, token: "USDT" });
      const outcomes = await Promise.all(ids.map(sweepEnds));
      expect(outcomes.map((s) => [s.status, s.swept_amount])).toEqual(deposits.map((_, i) => ["swept", String(1_000_000 + i)]));

      // The native coin of some of them as soon as their token sweeps are swept, without an authorization: the
      // delegation is in a block the lagging backend has not seen yet, but the service confirmed it itself.
      const nativeIds = await Promise.all(deposits.filter((_, i) => i % 3 === 0).map((d) => postSweep({ account: d.owner.address, token: "native" })));
      expect((await Promise.all(nativeIds.map(sweepEnds))).map((s) => [s.status, s.kind, s.swept_amount])).toEqual(nativeIds.map(() => ["swept", "repeat", parseEther("0.01").toString()]));
      expect(await sweepEnds(emptyId)).toMatchObject({ status: "rejected", reason: "nothing_to_sweep" });
      expect(await sweepEnds(neverId)).toMatchObject({ status: "rejected", reason: "not_upgraded" });
      deposits.forEach((d, i) => swept.push({ owner: d.owner, native: i % 3 === 0 }));
    } catch (err) {
      throw new Error(`${String(err)}\nseed ${SEED}; faults: ${schedule.join(" | ")}\n${serviceComplaints().slice(-40).join("\n")}`);
    } finally {
      clearTimeout(secondBack);
      await proxy.clear("http");
      await proxy.clear("drop");
      await proxy.clear("timeout");
      await second.clear();
    }
  }, 120_000);

  it("sweeps them again and revokes two while eth_simulateV1 is gone for a while and broadcasts' answers are lost", async () => {
    // The addresses the first-time sweeps delegated: without them there is nothing to sweep again.
    expect(swept).toHaveLength(FIRST_TIME);
    const simulateBack = setTimeout(() => void proxy.clear("drop"), 20_000);
    const secondBack = setTimeout(() => void second.clear("http"), 15_000);
    await faults("repeat sweeps and revocations: the second endpoint answers 503 to everything for 15 s; the first lacks eth_simulateV1 (-32601) for 20 s, answers its next 4 requests 429, its backend 0 the next 2 with 502, its next broadcast 502 and the one after never, both after reaching the node", () => {
      second.httpErrors(503, { fraction: 1 });
      proxy.dropMethod("eth_simulateV1", "-32601");
      proxy.httpErrors(429, { next: 4 });
      proxy.httpErrors(502, { next: 2 }, { backend: 0 });
      proxy.httpErrors(502, { next: 1, methods: ["eth_sendRawTransaction"], reachesNode: true });
      proxy.timeouts({ next: 1, methods: ["eth_sendRawTransaction"], reachesNode: true });
    });
    try {
      const [revoked, repeated, revokedThenSwept] = [swept.slice(0, 2), swept.slice(2, 8), swept[8]!];
      for (const { owner } of [...repeated, revokedThenSwept]) await chain().mintUsdt(owner.address, 2_000n);
      await deeperThanLag();
      const repeatIds = await Promise.all(repeated.map(({ owner }) => postSweep({ account: owner.address, token: "USDT" })));
      // Each was delegated by its first sweep: its nonce is 1.
      const revoke = async (owner: BaseWallet) => {
        const authorization = authorizationBody(owner.authorizeSync({ address: ZeroAddress, nonce: 1n, chainId: BigInt(CHAIN_ID) }));
        const res = await api("POST", "/v1/revocations", { chain_id: CHAIN_ID, account: owner.address, authorization });
        expect(res.status).toBe(202);
        return res.body.id as string;
      };
      const revocationIds = await Promise.all(revoked.map(({ owner }) => revoke(owner)));
      // A sweep requested right after a revocation of its address waits for it, and then finds the delegation gone.
      const lastRevocation = await revoke(revokedThenSwept.owner);
      const afterRevocation = await postSweep({ account: revokedThenSwept.owner.address, token: "USDT" });

      expect((await Promise.all(repeatIds.map(sweepEnds))).map((s) => [s.status, s.kind, s.swept_amount])).toEqual(repeated.map(() => ["swept", "repeat", "2000"]));
      expect((await Promise.all([...revocationIds, lastRevocation].map(revocationEnds))).map((r) => r.status)).toEqual(["revoked", "revoked", "revoked"]);
      for (const { owner } of [...revoked, revokedThenSwept]) expect(await chain().provider.getCode(owner.address)).toBe("0x");
      expect(await sweepEnds(afterRevocation)).toMatchObject({ status: "rejected", reason: "not_upgraded" });
    } catch (err) {
      throw new Error(`${String(err)}\nseed ${SEED}; faults: ${schedule.join(" | ")}\n${serviceComplaints().slice(-40).join("\n")}`);
    } finally {
      clearTimeout(simulateBack);
      clearTimeout(secondBack);
      await proxy.clear();
      await second.clear();
    }
  }, 120_000);

  it("sweeps new and repeat deposits and revokes two while the first endpoint answers each provider's quota refusal in turn", async () => {
    const turns = Object.keys(QUOTA_REPLIES) as QuotaReply[];
    const startedAt = new Date().toISOString();
    let turn = 0;
    let rotating = true;
    await faults(`quota: the first endpoint refuses half its requests with one provider's quota answer at a time (${turns.join(", ")}), the next once two were served; the second answers`, () => undefined);
    // One reply at a time, moved on once it was served twice, so that each reaches the services however fast they rest the endpoint.
    const rotation = (async () => {
      for (; rotating; turn++) {
        const reply = turns[turn % turns.length]!;
        const served = () => proxy.counts().quotaReplies[reply] ?? 0;
        const before = served();
        await proxy.clear("quota");
        proxy.quota(reply, { fraction: 0.5 });
        while (rotating && served() < before + 2) await new Promise((r) => setTimeout(r, 100));
      }
    })();
    try {
      const [repeated, revoked] = [[...swept.slice(2, 6), swept[11]!], swept.slice(9, 11)];
      const deposits = await Promise.all(Array.from({ length: 4 }, (_, i) => fundedDeposit(chain(), delegate, BigInt(3_000_000 + i))));
      for (const { owner } of repeated) await chain().mintUsdt(owner.address, 3_000n);
      await deeperThanLag();
      const firstIds = await Promise.all(deposits.map((d) => postSweep({ account: d.owner.address, token: "USDT", authorization: d.authorization })));
      const repeatIds = await Promise.all(repeated.map(({ owner }) => postSweep({ account: owner.address, token: "USDT" })));
      // Each was delegated by its first sweep and never revoked: its nonce is 1.
      const revocationIds = await Promise.all(
        revoked.map(async ({ owner }) => {
          const authorization = authorizationBody(owner.authorizeSync({ address: ZeroAddress, nonce: 1n, chainId: BigInt(CHAIN_ID) }));
          const res = await api("POST", "/v1/revocations", { chain_id: CHAIN_ID, account: owner.address, authorization });
          expect(res.status).toBe(202);
          return res.body.id as string;
        }),
      );
      expect((await Promise.all(firstIds.map(sweepEnds))).map((s) => [s.status, s.swept_amount])).toEqual(deposits.map((_, i) => ["swept", String(3_000_000 + i)]));
      expect((await Promise.all(repeatIds.map(sweepEnds))).map((s) => [s.status, s.kind, s.swept_amount])).toEqual(repeated.map(() => ["swept", "repeat", "3000"]));
      expect((await Promise.all(revocationIds.map(revocationEnds))).map((r) => r.status)).toEqual(["revoked", "revoked"]);
      for (const { owner } of revoked) expect(await chain().provider.getCode(owner.address)).toBe("0x");
      // Every reply was served while the work went on, or right after it.
      await eventually("every quota reply to be served", async () => (turn >= turns.length ? true : undefined), 60_000, 200);
      const { quotaReplies } = proxy.counts();
      for (const reply of turns) expect([reply, (quotaReplies[reply] ?? 0) >= 2]).toEqual([reply, true]);
      // None reached the work as the node's answer: the services counted them as the endpoint's, and no warning quotes one.
      const refusalWords = turns.flatMap((reply) => QUOTA_REPLIES[reply].error?.message ?? []).filter((words) => words.length >= 14);
      const quoted = [...stack.services.values()].flatMap((s) =>
        s
          .logLines()
          .filter((l) => (l.level === "warn" || l.level === "error") && String(l.timestamp) >= startedAt && refusalWords.some((words) => JSON.stringify(l).includes(words.slice(0, 24))))
          .map((l) => `${s.name}: ${JSON.stringify(l)}`),
      );
      expect(quoted).toEqual([]);
      const counted = await Promise.all([...stack.services.values()].map(async (s) => (await readMetrics(s.metricsPort)).sum("sweep_rpc_http_requests_total", { chain_id: String(CHAIN_ID), outcome: "quota" }) ?? 0));
      expect(counted.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    } catch (err) {
      throw new Error(`${String(err)}\nseed ${SEED}; quota turn ${turn}; faults: ${schedule.join(" | ")}\n${serviceComplaints().slice(-40).join("\n")}`);
    } finally {
      rotating = false;
      await rotation;
      await proxy.clear("quota");
    }
  }, 150_000);

  it("swept each deposit once on chain, gave up no nonce whose transaction was mined, and keeps the ledger equal to the chain", async () => {
    const { db } = stack;
    const settled = await settledGasWallet(db, chain(), partner.partnerId);
    const breaches: string[] = [];

    // One on-chain transfer per swept sweep: the delegate's Swept events pair off with the swept sweeps, and the hot wallet holds their sum.
    const sweeps = await db.sweep.findMany({ where: { partnerId: partner.partnerId } });
    const sweptSweeps = sweeps.filter((s) => s.status === "swept");
    const logs = await chain().provider.getLogs({ address: delegate, fromBlock: 0, toBlock: "latest" });
    const onChain = logs.flatMap((log) => decodeSweepOutcomes([log], delegate).flatMap((o) => (o.swept ? [{ account: o.account, txHash: log.transactionHash, amount: o.amount }] : [])));
    const match = matchSweeps(
      sweptSweeps.map((s) => ({ id: s.id, account: s.account, txHash: s.txHash!, amount: BigInt(s.sweptAmount!.toFixed()) })),
      onChain,
    );
    for (const e of match.doubles) breaches.push(`${e.account} swept on chain in ${e.txHash} (${e.amount}) with no swept sweep for it`);
    for (const s of match.missing) breaches.push(`sweep ${s.id} is swept but its Swept event is not on chain`);
    const sum = (tokenAddress: "token" | "native") =>
      sweptSweeps.filter((s) => (s.tokenAddress === null) === (tokenAddress === "native")).reduce((total, s) => total + BigInt(s.sweptAmount!.toFixed()), 0n);
    const usdt = contractAt("DevToken", chain().usdt.address, chain().provider);
    expect(await usdt.getFunction("balanceOf")(hotWallet)).toBe(sum("token"));
    expect(await chain().provider.getBalance(hotWallet)).toBe(sum("native"));

    // No nonce given up: nothing dropped, no batch failed nonce_conflict, the chain-sender counted none, and each mined nonce is the stored confirmed one.
    const wallet = await db.gasWallet.findUniqueOrThrow({ where: { partnerId: partner.partnerId } });
    const transactions = await db.chainTransaction.findMany({
      where: { gasWalletId: wallet.id, chainId: CHAIN_ID },
      select: { gasWalletId: true, chainId: true, nonce: true, hash: true, status: true, batchId: true, rawTx: true, replacement: true },
    });
    for (const t of transactions.filter((t) => t.status === "dropped")) breaches.push(`${t.hash} (nonce ${t.nonce}) was abandoned (dropped)`);
    const conflicted = await db.batch.findMany({ where: { gasWalletId: wallet.id, reason: "nonce_conflict" }, select: { id: true, purpose: true } });
    for (const b of conflicted) breaches.push(`${b.purpose} batch ${b.id} failed nonce_conflict`);
    breaches.push(...nonceConflicts(transactions));
    const mined = new Set<string>();
    for (const t of transactions) if (await chain().provider.getTransactionReceipt(t.hash)) mined.add(t.hash);
    breaches.push(...minedNonceBreaches(transactions, await chain().provider.getTransactionCount(wallet.address, "latest"), mined));
    const abandoned = (await readMetrics(stack.services.get("chain-sender")!.metricsPort)).sum("sweep_nonces_abandoned_total") ?? 0;

    // Ledger = chain: the gas wallet's chain-moving entries add up to its balance, the one top-up being the funding.
    const { gas, withdrawal, topup } = settled.entries;
    if (gas + withdrawal + topup !== settled.balance) breaches.push(`ledger ${gas + withdrawal + topup} ≠ chain ${settled.balance} (gas ${gas}, withdrawal ${withdrawal}, topup ${topup})`);
    if (topup !== FUNDING) breaches.push(`top-ups ${topup}, funded ${FUNDING}: a reconciliation covered a missing or doubled entry`);

    const counts = proxy.counts();
    const secondCounts = second.counts();
    const calls = Object.entries(counts.byMethod).sort(([, a], [, b]) => b - a);
    console.log(
      [
        `RPC faults story, seed ${SEED} (RPC_FAULTS_SEED=${SEED} replays it)`,
        ...schedule.map((s) => `  faults ${s}`),
        `  ${sweptSweeps.length} sweeps swept, ${transactions.length} transactions stored, ${mined.size} mined`,
        `  ${counts.httpRequests} HTTP requests (by backend ${counts.byBackend.join(" / ")}), ${calls.reduce((n, [, c]) => n + c, 0)} JSON-RPC calls:`,
        ...calls.map(([method, n]) => `    ${method} ${n}`),
        `  faults injected: ${Object.entries(counts.faults).map(([kind, n]) => `${kind} ${n}`).join(", ")}`,
        `  second endpoint: ${secondCounts.httpRequests} HTTP requests answered or failed while up; faults: ${Object.entries(secondCounts.faults).map(([kind, n]) => `${kind} ${n}`).join(", ")}`,
      ].join("\n"),
    );
    if (breaches.length > 0) console.log(`breaches:\n${breaches.join("\n")}\n${serviceComplaints().join("\n")}`);
    expect(breaches).toEqual([]);
    expect(abandoned).toBe(0);
    // The faults did happen.
    expect(counts.faults.timeouts).toBeGreaterThanOrEqual(3);
    expect(counts.faults.http429).toBeGreaterThan(4);
    expect(counts.faults.http5xx).toBeGreaterThan(0);
    expect(counts.faults.dropped).toBeGreaterThan(0);
    expect(counts.faults.lagged).toBeGreaterThan(0);
    expect(counts.faults.split).toBeGreaterThan(0);
    expect(secondCounts.faults.http5xx).toBeGreaterThan(0);
  }, 90_000);

  it("restores a sweep batch given up while every endpoint withheld its mined transaction: its sweeps swept, its gas booked once, the ledger equal to the chain", async () => {
    // A partner of its own: the story's partner gave up no nonce, and this one's is given up on purpose.
    const other = await createTestPartner(stack.db, "withheld receipts");
    const otherApi = partnerApi(() => apiBase, () => other.auth);
    const otherHotWallet = Wallet.createRandom().address;
    await chain().setBalance(other.gasWallet, FUNDING);
    await deeperThanLag();
    const otherDelegate = (await activeHotWallet(otherApi, CHAIN_ID, otherHotWallet)).delegate;
    const deposits = await Promise.all(Array.from({ length: 3 }, (_, i) => fundedDeposit(chain(), otherDelegate, BigInt(5_000_000 + i))));
    await deeperThanLag();
    const { db } = stack;
    const wallet = await db.gasWallet.findUniqueOrThrow({ where: { partnerId: other.partnerId } });
    const sweepOf = async (id: string) => (await otherApi("GET", `/v1/sweeps/${id}`)).body as Work;

    await faults("last: both endpoints withhold the second partner's gas wallet's transactions (receipts and transactions by hash answer null) until its sweep batch is given up, then answer again", () => {
      proxy.withholdTransactions(other.gasWallet);
      second.withholdTransactions(other.gasWallet);
    });
    let ids: string[] = [];
    try {
      ids = await Promise.all(
        deposits.map(async (d) => {
          const res = await otherApi("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: otherHotWallet, account: d.owner.address, token: "USDT", authorization: d.authorization });
          expect(res.status).toBe(202);
          return res.body.id as string;
        }),
      );
      // The batch's transaction is mined, the watcher sees the nonce counted with no receipt over 12 blocks, and gives it up.
      const given = await eventually(
        "the sweep batch given up",
        async () => (await db.chainTransaction.findFirst({ where: { gasWalletId: wallet.id, chainId: CHAIN_ID, status: "dropped", batch: { purpose: "sweep" } } })) ?? undefined,
        90_000,
        500,
      );
      expect(await chain().provider.getTransactionReceipt(given.hash)).toMatchObject({ status: 1 });
      expect(await db.batch.findUniqueOrThrow({ where: { id: given.batchId! } })).toMatchObject({ status: "failed", reason: "nonce_conflict" });
      // What the failure tells the partner: its sweeps end rejected, though their funds moved.
      const ended = await Promise.all(ids.map((id) => untilEnded<Work>(otherApi, "/v1/sweeps", id, 90_000)));
      expect(ended.map((s) => s.status)).toEqual(["rejected", "rejected", "rejected"]);
    } catch (err) {
      throw new Error(`${String(err)}\nseed ${SEED}; faults: ${schedule.join(" | ")}\n${serviceComplaints().slice(-40).join("\n")}`);
    } finally {
      await proxy.clear("withhold");
      await second.clear("withhold");
    }

    // The receipt answers again: the transaction is restored, and its sweeps end as the chain says.
    const restored = await Promise.all(ids.map((id) => eventually(`sweep ${id} swept`, async () => ((await sweepOf(id)).status === "swept" ? sweepOf(id) : undefined), 60_000, 500)));
    const mined = await db.chainTransaction.findFirstOrThrow({ where: { gasWalletId: wallet.id, chainId: CHAIN_ID, batch: { purpose: "sweep" } }, orderBy: { nonce: "desc" } });
    expect(mined.status).toBe("confirmed");
    expect(restored.map((s) => [s.status, s.swept_amount, s.tx_hash])).toEqual(deposits.map((_, i) => ["swept", String(5_000_000 + i), mined.hash]));
    const usdt = contractAt("DevToken", chain().usdt.address, chain().provider);
    expect(await usdt.getFunction("balanceOf")(otherHotWallet)).toBe(5_000_000n + 5_000_001n + 5_000_002n);

    // Booked once: one gas entry for it, a fee entry at most a sweep, one swept event a sweep; and the ledger equals the chain.
    const settled = await settledGasWallet(db, chain(), other.partnerId);
    expect(await db.ledgerEntry.count({ where: { partnerId: other.partnerId, kind: "gas", txHash: mined.hash } })).toBe(1);
    // A fee entry a sweep whose fee is not zero (a zero fee books nothing).
    for (const sweep of await db.sweep.findMany({ where: { id: { in: ids } }, select: { id: true, fee: true } })) {
      expect([sweep.id, await db.ledgerEntry.count({ where: { kind: "fee", sweepId: sweep.id } })]).toEqual([sweep.id, sweep.fee !== null && sweep.fee.gt(0) ? 1 : 0]);
    }
    for (const id of ids) expect(await db.event.count({ where: { subjectId: id, type: "sweep.swept" } })).toBe(1);
    const { gas, withdrawal, topup } = settled.entries;
    expect(gas + withdrawal + topup).toBe(settled.balance);
    expect((await readMetrics(stack.services.get("chain-sender")!.metricsPort)).sum("sweep_nonces_restored_total")).toBeGreaterThanOrEqual(1);

    // A revocation given up the same way ends rejected (queued again by the failure, then the batcher finds it done on chain);
    // restored, it ends revoked, as the account's code says.
    const revokedOwner = deposits[0]!.owner;
    await faults("last, again: both endpoints withhold the second partner's transactions until its revocation batch is given up, then answer again", () => {
      proxy.withholdTransactions(other.gasWallet);
      second.withholdTransactions(other.gasWallet);
    });
    let revocationId = "";
    try {
      const authorization = authorizationBody(revokedOwner.authorizeSync({ address: ZeroAddress, nonce: 1n, chainId: BigInt(CHAIN_ID) }));
      const res = await otherApi("POST", "/v1/revocations", { chain_id: CHAIN_ID, account: revokedOwner.address, authorization });
      expect(res.status).toBe(202);
      revocationId = res.body.id as string;
      const given = await eventually(
        "the revocation batch given up",
        async () => (await db.chainTransaction.findFirst({ where: { gasWalletId: wallet.id, chainId: CHAIN_ID, status: "dropped", batch: { purpose: "revocation" } } })) ?? undefined,
        90_000,
        500,
      );
      expect(await chain().provider.getTransactionReceipt(given.hash)).toMatchObject({ status: 1 });
      expect(await untilEnded<Work>(otherApi, "/v1/revocations", revocationId, 90_000)).toMatchObject({ status: "rejected" });
    } catch (err) {
      throw new Error(`${String(err)}\nseed ${SEED}; faults: ${schedule.join(" | ")}\n${serviceComplaints().slice(-40).join("\n")}`);
    } finally {
      await proxy.clear("withhold");
      await second.clear("withhold");
    }
    const revocationOf = async () => (await otherApi("GET", `/v1/revocations/${revocationId}`)).body as Work;
    expect(await eventually("the revocation revoked", async () => ((await revocationOf()).status === "revoked" ? revocationOf() : undefined), 60_000, 500)).toMatchObject({ status: "revoked" });
    expect(await chain().provider.getCode(revokedOwner.address)).toBe("0x");
    expect((await db.event.findMany({ where: { subjectId: revocationId }, orderBy: { createdAt: "asc" } })).map((e) => e.type)).toEqual(["revocation.rejected", "revocation.revoked"]);
    // The final states the restorations undid are counted as corrected (a counter never goes down): three sweeps, one revocation.
    const senderMetrics = await readMetrics(stack.services.get("chain-sender")!.metricsPort);
    expect(senderMetrics.sum("sweep_sweeps_final_corrected_total", { status: "rejected" })).toBeGreaterThanOrEqual(3);
    expect(senderMetrics.sum("sweep_revocations_final_corrected_total", { status: "rejected" })).toBeGreaterThanOrEqual(1);
    const after = await settledGasWallet(db, chain(), other.partnerId);
    expect(after.entries.gas + after.entries.withdrawal + after.entries.topup).toBe(after.balance);
  }, 360_000);
});
