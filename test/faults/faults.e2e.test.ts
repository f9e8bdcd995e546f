import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { contractAt, decodeSweepOutcomes } from "@sweep/contracts";
import {
  activeHotWallet,
  createTestPartner,
  deliveryBreaches,
  makeCertificates,
  matchSweeps,
  minedNonceBreaches,
  lowBalanceBreaches,
  nonceConflicts,
  partnerApi,
  readMetrics,
  replacementsOf,
  runSweepctl,
  seedOf,
  seededRandom,
  settledGasWallet,
  startPrivateRabbitMQ,
  startReceiver,
  startStack,
  withdrawalBreaches,
  type PrivateRabbitMQ,
  type Receiver,
  type ServiceName,
  type Stack,
  type StoredTransaction,
  type StoredWithdrawal,
  type TestCertificates,
} from "@sweep/testkit";
import { Transaction, Wallet, parseEther } from "ethers";
import { injectFaults, type InjectedFault } from "./fault-injector";
import { describeFault, faultSchedule } from "./fault-schedule";
import { performMoneyMoves, type PerformedMove } from "./money-moves";
import { describeMoneyMove, moneySchedule } from "./money-schedule";
import { Supervisor, type UnplannedExit } from "./supervisor";
import { Workload, type Lane } from "./workload";

// Two partners sweep and revoke on both chains, a few operations a second, with webhooks set,
// while each service is SIGKILLed and started again and the broker restarts (twice each), one
// chain's node stops answering for 30 s, the other chain mines no block for 35 s (so the
// chain-sender replaces what waits in its pool), and the partners' webhook receiver fails for a
// minute. Meanwhile the operator withdraws the fees due a few times and a partner sets a
// low-balance alert that its gas wallet then falls below. Then, once the work has drained: every
// sweep, revocation and withdrawal is final, no deposit was swept twice, no nonce carries two
// different transactions (a replacement carries the same one at higher fees), each withdrawal is
// booked once, each gas wallet's ledger matches its balance on chain, the treasury holds what the
// withdrawals sent, and every event was delivered, the balance.low among them. Everything is real
// (services as processes, Postgres, Redis, a RabbitMQ node of the test's own, anvil with 1 s
// blocks). FAULTS_SEED replays a run's faults and money moves.

const SEED = seedOf(process.env.FAULTS_SEED);
const LOAD_SECONDS = Number(process.env.FAULTS_SECONDS ?? 240);
/** Each service killed, and the broker restarted, this many times, at random moments. */
const ROUNDS = 2;
const RATE = Number(process.env.FAULTS_RATE ?? 4);
/** The spec's 10 s retry base doubles past an hour before a minute-long failure drains; 500 ms keeps the run short. */
const WEBHOOK_RETRY_BASE_MS = 500;
/** How long the last operations may take to be posted once the load stops, and the work to drain after. */
const POST_GRACE_MS = 120_000;
const DRAIN_DEADLINE_MS = 240_000;
const GAS_FUNDING = parseEther("100");
const BLOCK_TIME = 1;
/** Past twice the chain-sender's REPLACE_AFTER_MS (15 s by default): a transaction in flight as the stall begins is replaced, and its replacement replaced again. */
const CHAIN_STALL_MS = 35_000;
const WITHDRAWALS = 3;
/** Where the withdrawn fees go, on both chains. */
const TREASURY = Wallet.createRandom().address;
const SERVICES: ServiceName[] = ["api-gateway", "batcher", "chain-sender", "ledger", "webhook-dispatcher"];
const CHAIN_IDS = [97, 11155111];
const PARTNERS = ["alpha", "beta"];

const assetOf = (sweep: { tokenAddress: string | null }) => (sweep.tokenAddress === null ? "native" : "USDT");

interface Figures {
  lines: string[];
  lost: number;
  duplicated: number;
  breaches: string[];
  /** how often the paths this run is there to try were taken: each must be at least once */
  exercised: { replacementsInTheStall: number; withdrawalsBooked: number; balanceLowDelivered: number };
}

describe("faults: every operation survives crashes, a broker restart, a hung chain, a chain that mines nothing and a failing webhook", () => {
  let certificates: TestCertificates;
  let receiver: Receiver;
  let broker: PrivateRabbitMQ;
  let stack: Stack;
  let failing = false;
  let supervisor: Supervisor | undefined;
  let workload: Workload | undefined;
  let passed = false;
  const lanes: Lane[] = [];
  const partners: Array<{ name: string; partnerId: string; gasWallet: string; hookPath: string; api: ReturnType<typeof partnerApi> }> = [];

  beforeAll(async () => {
    certificates = makeCertificates();
    receiver = await startReceiver(certificates);
    broker = await startPrivateRabbitMQ();
    stack = await startStack({
      blockTime: BLOCK_TIME,
      env: {
        RABBITMQ_URL: broker.url,
        NODE_EXTRA_CA_CERTS: certificates.caPath,
        WEBHOOK_ALLOW_PRIVATE: "true",
        WEBHOOK_RETRY_BASE_MS: String(WEBHOOK_RETRY_BASE_MS),
        LOG_LEVEL: "info",
        ...Object.fromEntries(CHAIN_IDS.map((chainId) => [`TREASURY_ADDRESS_${chainId}`, TREASURY])),
      },
    });
    for (const name of PARTNERS) {
      const partner = await createTestPartner(stack.db, name);
      const api = partnerApi(() => stack.api, () => partner.auth);
      for (const chainId of CHAIN_IDS) await stack.chain(chainId).setBalance(partner.gasWallet, GAS_FUNDING);
      const hookPath = `/hooks/${name}`;
      const webhook = await api("PUT", "/v1/webhook", { url: receiver.url(hookPath) });
      expect(webhook.status).toBe(200);
      receiver.route(hookPath, webhook.body.secret, (res) => res.writeHead(failing ? 500 : 204).end());
      partners.push({ name, partnerId: partner.partnerId, gasWallet: partner.gasWallet, hookPath, api });
      for (const chainId of CHAIN_IDS) {
        const { address, delegate } = await activeHotWallet(api, chainId, Wallet.createRandom().address, 120_000);
        lanes.push({ name: `${name}@${chainId}`, partner, chain: stack.chain(chainId), hotWallet: address, delegate });
      }
    }
  }, 300_000);

  afterAll(async () => {
    await workload?.close();
    supervisor?.stop();
    if (stack && (!passed || process.env.FAULTS_LOG_DIR)) keepLogs();
    await stack?.stop();
    await broker?.stop();
    await receiver?.close();
    certificates?.remove();
  }, 120_000);

  it(`keeps every operation and withdrawal, once, and tells every outcome (seed ${SEED})`, async () => {
    const schedule = faultSchedule(seededRandom(SEED), { windowMs: LOAD_SECONDS * 1000, rounds: ROUNDS, services: SERVICES, chainIds: CHAIN_IDS, chainStopMs: 30_000, chainStallMs: CHAIN_STALL_MS, webhookFailureMs: 60_000 });
    const moves = moneySchedule(seededRandom(SEED ^ 0x27d4eb2f), { windowMs: LOAD_SECONDS * 1000, withdrawals: WITHDRAWALS, partners: PARTNERS, chainIds: CHAIN_IDS });
    workload = new Workload({ api: stack.api, db: stack.db, lanes, random: seededRandom(SEED ^ 0x5bd1e995), rate: RATE, runId: `faults-${SEED}-${Date.now()}` });

    const loadStartedAt = Date.now();
    supervisor = new Supervisor(stack, loadStartedAt);
    workload.start();
    const partnerNamed = (name: string) => partners.find((p) => p.name === name)!;
    const [injected, performed] = await Promise.all([
      injectFaults(
        schedule,
        {
          services: supervisor,
          chain: (chainId) => stack.chain(chainId),
          blockTime: BLOCK_TIME,
          broker,
          webhooks: { fail: () => (failing = true), recover: () => (failing = false) },
          inFlight: (chainId) => stack.db.chainTransaction.count({ where: { chainId, status: { in: ["signed", "broadcast"] } } }),
        },
        loadStartedAt,
      ),
      performMoneyMoves(
        moves,
        {
          sweepctl: (args) => runSweepctl(args, stack.env),
          gasBalance: (name, chainId) => stack.chain(chainId).provider.getBalance(partnerNamed(name).gasWallet),
          putWebhook: async (name, lowBalance) => (await partnerNamed(name).api("PUT", "/v1/webhook", { url: receiver.url(partnerNamed(name).hookPath), low_balance: lowBalance })).status,
        },
        loadStartedAt,
      ),
    ]);
    await sleep(Math.max(0, loadStartedAt + LOAD_SECONDS * 1000 - Date.now()));
    await workload.stop(POST_GRACE_MS);
    const loadEndedAt = Date.now();
    const drain = await drained(DRAIN_DEADLINE_MS);
    await workload.close();

    const figures = await inspect(workload, injected, performed, supervisor.exits, drain, loadStartedAt, loadEndedAt);
    process.stdout.write(`\n${figures.lines.join("\n")}\n\n`);

    expect(workload.errors).toEqual([]);
    expect({ lost: figures.lost, duplicated: figures.duplicated, breaches: figures.breaches }).toEqual({ lost: 0, duplicated: 0, breaches: [] });
    // The stall made the chain-sender replace a stuck transaction, a withdrawal moved fees, and the alert's event reached the partner.
    expect(Object.entries(figures.exercised).flatMap(([path, times]) => (times > 0 ? [] : [path]))).toEqual([]);
    passed = true;
  }, (LOAD_SECONDS + 1_000) * 1000);

  /** Waits until nothing is left to do: no sweep, revocation, withdrawal or transaction under way, every event delivered. */
  async function drained(deadlineMs: number): Promise<{ ms: number; complete: boolean }> {
    const started = Date.now();
    for (;;) {
      const open = await Promise.all([
        stack.db.sweep.count({ where: { status: { in: ["queued", "processing"] } } }),
        stack.db.revocation.count({ where: { status: { in: ["queued", "processing"] } } }),
        stack.db.batch.count({ where: { purpose: "withdrawal", status: { in: ["open", "sent"] } } }),
        stack.db.chainTransaction.count({ where: { status: { in: ["signed", "broadcast"] } } }),
        stack.db.event.count({ where: { OR: [{ delivery: { is: null } }, { delivery: { is: { status: { not: "delivered" } } } }] } }),
      ]);
      if (open.every((n) => n === 0)) return { ms: Date.now() - started, complete: true };
      if (Date.now() - started > deadlineMs) return { ms: Date.now() - started, complete: false };
      await sleep(1_000);
    }
  }

  /** Reads the database and the chains after the drain: the figures to print and every breach of what must hold. */
  async function inspect(load: Workload, injected: InjectedFault[], performed: PerformedMove[], exits: UnplannedExit[], drain: { ms: number; complete: boolean }, loadStartedAt: number, loadEndedAt: number): Promise<Figures> {
    const { db } = stack;
    const seconds = (ms: number) => (ms / 1000).toFixed(1);
    const breaches: string[] = [
      ...injected.filter((f) => f.error).map((f) => `${describeFault(f.fault)}: ${f.error}`),
      ...performed.filter((m) => m.error).map((m) => `${describeMoneyMove(m.move)}: ${m.error}`),
    ];
    const nameOf = (partnerId: string) => partners.find((p) => p.partnerId === partnerId)?.name ?? partnerId;
    const sweeps = await db.sweep.findMany({ include: { hotWallet: true } });
    const revocations = await db.revocation.findMany();
    const operations = load.operations;
    const planOf = new Map(operations.map((o) => [o.id, o.plan]));

    // Outcomes: nothing in this load may end otherwise once the faults are over (each deposit is funded before its sweep is asked for).
    const isOpen = (w: { status: string }) => w.status === "queued" || w.status === "processing";
    const unexpected = [...sweeps.filter((s) => !isOpen(s) && s.status !== "swept"), ...revocations.filter((r) => !isOpen(r) && r.status !== "revoked")];
    for (const w of unexpected) breaches.push(`${"hotWallet" in w ? "sweep" : "revocation"} ${w.id} (${planOf.get(w.id)}) ended ${w.status}${w.reason ? ` ${w.reason}` : ""}`);

    // Lost: what was accepted and never reached a final state.
    const open = [...sweeps, ...revocations].filter(isOpen);
    for (const w of open) breaches.push(`${"hotWallet" in w ? "sweep" : "revocation"} ${w.id} still ${w.status}${w.reason ? ` (${w.reason})` : ""}`);
    const notPosted = operations.filter((o) => !sweeps.some((s) => s.id === o.id) && !revocations.some((r) => r.id === o.id));
    for (const o of notPosted) breaches.push(`${o.kind} ${o.id} was accepted but is not stored`);

    // Each final state told by its event.
    const events = await db.event.findMany({ include: { delivery: true } });
    const told = new Set(events.map((e) => `${e.type}:${e.subjectId}`));
    const final = [...sweeps.map((s) => ({ ...s, kind: "sweep" })), ...revocations.map((r) => ({ ...r, kind: "revocation" }))]
      .filter((w) => !isOpen(w))
      .map((w) => ({ id: w.id, type: `${w.kind}.${w.status}` }));
    for (const w of final) if (!told.has(`${w.type}:${w.id}`)) breaches.push(`${w.type} of ${w.id} has no event`);

    // Deposits swept twice: the delegates' Swept events on chain against the swept sweeps; the hot wallets hold exactly what was swept.
    let doubles = 0;
    for (const lane of lanes) {
      const laneSweeps = sweeps.filter((s) => s.hotWallet.address === lane.hotWallet && s.chainId === lane.chain.chainId && s.status === "swept");
      const logs = await lane.chain.provider.getLogs({ address: lane.delegate, fromBlock: 0, toBlock: "latest" });
      const onChain = logs.flatMap((log) => decodeSweepOutcomes([log], lane.delegate).flatMap((o) => (o.swept ? [{ account: o.account, txHash: log.transactionHash, amount: o.amount }] : [])));
      const match = matchSweeps(
        laneSweeps.map((s) => ({ id: s.id, account: s.account, txHash: s.txHash!, amount: BigInt(s.sweptAmount!.toFixed()) })),
        onChain,
      );
      doubles += match.doubles.length;
      for (const e of match.doubles) breaches.push(`${lane.name}: ${e.account} swept on chain in ${e.txHash} (${e.amount}) with no swept sweep for it`);
      for (const s of match.missing) breaches.push(`${lane.name}: sweep ${s.id} is swept but its Swept event is not on chain`);
      const held = { USDT: await contractAt("DevToken", lane.chain.usdt.address, lane.chain.provider).getFunction("balanceOf")(lane.hotWallet), native: await lane.chain.provider.getBalance(lane.hotWallet) };
      for (const asset of ["USDT", "native"] as const) {
        const sweptTotal = laneSweeps.filter((s) => assetOf(s) === asset).reduce((sum, s) => sum + BigInt(s.sweptAmount!.toFixed()), 0n);
        if (held[asset] !== sweptTotal) breaches.push(`${lane.name}: the hot wallet holds ${held[asset]} ${asset}, its sweeps swept ${sweptTotal}`);
      }
    }

    // Nonces: one content per nonce in the database, and on chain each nonce taken by the stored transaction marked confirmed.
    const transactions: StoredTransaction[] = await db.chainTransaction.findMany({ select: { gasWalletId: true, chainId: true, nonce: true, hash: true, status: true, batchId: true, rawTx: true, replacement: true } });
    const conflicts = nonceConflicts(transactions);
    breaches.push(...conflicts);

    // Replacements: the stall kept transactions in the pool past REPLACE_AFTER_MS; the chain-sender re-signed them at their nonce with higher fees.
    const replacements = replacementsOf(transactions);
    const stalled = injected.flatMap((f) => (f.fault.kind === "chain-stall" ? [f.fault.chainId] : []));
    const replacementsInTheStall = replacements.filter((t) => stalled.includes(t.chainId)).length;
    const replacedMetric = await readMetrics(stack.services.get("chain-sender")!.metricsPort).then(
      (m) => String(m.sum("sweep_replacements_total") ?? 0),
      (err: unknown) => `unread (${String(err)})`,
    );
    let offRecord = 0;
    const gasWallets = await db.gasWallet.findMany();
    for (const wallet of gasWallets) {
      for (const chainId of CHAIN_IDS) {
        const provider = stack.chain(chainId).provider;
        const own = transactions.filter((t) => t.gasWalletId === wallet.id && t.chainId === chainId);
        const mined = new Set<string>();
        for (const tx of own) if (await provider.getTransactionReceipt(tx.hash)) mined.add(tx.hash);
        const found = minedNonceBreaches(own, await provider.getTransactionCount(wallet.address, "latest"), mined);
        offRecord += found.length;
        breaches.push(...found.map((b) => `gas wallet ${wallet.address} on ${chainId}: ${b}`));
      }
    }

    // Withdrawals: each ended and was booked once, value and gas; the treasury holds exactly what they sent.
    const withdrawals = await db.batch.findMany({ where: { purpose: "withdrawal" }, include: { transactions: true } });
    const storedWithdrawals: StoredWithdrawal[] = withdrawals.map((b) => ({
      batchId: b.id,
      status: b.status,
      transactions: b.transactions.map((t) => ({
        hash: t.hash,
        status: t.status,
        rawTx: t.rawTx,
        succeeded: t.succeeded,
        gasCost: t.gasUsed === null || t.effectiveGasPrice === null ? null : t.gasUsed * BigInt(t.effectiveGasPrice.toFixed()),
      })),
    }));
    const withdrawalHashes = withdrawals.flatMap((b) => b.transactions.map((t) => t.hash));
    const bookedEntries = await db.ledgerEntry.findMany({ where: { OR: [{ kind: "withdrawal" }, { txHash: { in: withdrawalHashes } }] }, select: { kind: true, txHash: true, amount: true } });
    breaches.push(...withdrawalBreaches(storedWithdrawals, bookedEntries.map((e) => ({ kind: e.kind, txHash: e.txHash, amount: BigInt(e.amount.toFixed()) }))));
    const withdrawalsBooked = bookedEntries.filter((e) => e.kind === "withdrawal").length;
    const treasury: string[] = [];
    for (const chainId of CHAIN_IDS) {
      const sent = withdrawals
        .filter((b) => b.chainId === chainId)
        .flatMap((b) => b.transactions)
        .filter((t) => t.status === "confirmed" && t.succeeded)
        .reduce((sum, t) => sum + Transaction.from(t.rawTx).value, 0n);
      const held = await stack.chain(chainId).provider.getBalance(TREASURY);
      if (held !== sent) breaches.push(`the treasury holds ${held} on chain ${chainId}, the withdrawals sent it ${sent}`);
      treasury.push(`${held} wei on ${chainId}`);
    }

    // The money: each gas wallet's chain-moving entries add up to its balance, and the only top-ups are the test's own funding.
    const ledgerLines: string[] = [];
    for (const partner of partners) {
      for (const chainId of CHAIN_IDS) {
        // Undrained work will not settle: then the wait is short, and the breach says so.
        const settled = await settledGasWallet(db, stack.chain(chainId), partner.partnerId, drain.complete ? 60_000 : 5_000).catch((err: unknown) => err as Error);
        if (settled instanceof Error) {
          breaches.push(`${partner.name}@${chainId}: ${settled.message}`);
          continue;
        }
        const { gas, withdrawal, topup, fee, fee_charge, fee_credit } = settled.entries;
        if (gas + withdrawal + topup !== settled.balance) breaches.push(`${partner.name}@${chainId}: ledger ${gas + withdrawal + topup} against ${settled.balance} on chain`);
        if (topup !== GAS_FUNDING) breaches.push(`${partner.name}@${chainId}: top-ups ${topup}, funded ${GAS_FUNDING}: the reconciliation explained a gap the ledger left`);
        const [accrued, withdrawn] = [-(fee + fee_charge + fee_credit), -withdrawal];
        // A withdrawal's value and gas never take more than the fees due: all of them together, not more than were accrued.
        if (withdrawn > accrued) breaches.push(`${partner.name}@${chainId}: withdrew ${withdrawn} (value and gas), more than the ${accrued} of fees accrued`);
        ledgerLines.push(`${partner.name}@${chainId} balance ${settled.balance} = funded ${GAS_FUNDING} + gas ${gas} + withdrawals ${withdrawal}; fees accrued ${accrued}, withdrawn ${withdrawn}`);
      }
    }

    // Webhooks: each event delivered, and seen by the receiver with a valid signature.
    const received = new Set(partners.flatMap((p) => receiver.received(p.hookPath).filter((d) => d.verified).map((d) => (JSON.parse(d.body) as { id: string }).id)));
    const undelivered = deliveryBreaches(
      events.map((e) => ({ id: e.id, type: e.type, delivery: e.delivery?.status })),
      received,
    );
    breaches.push(...undelivered);
    const deliveries = partners.reduce((n, p) => n + receiver.received(p.hookPath).length, 0);

    // The alert: the gas wallet fell below it once (it never recovers: nothing tops it up), and its balance.low reached the partner.
    const [alerted] = performed.flatMap(({ move, atMs, threshold }) =>
      move.kind === "balance-alert" && threshold !== undefined ? [{ ...move, setAtMs: atMs, threshold, partnerId: partners.find((p) => p.name === move.partner)!.partnerId }] : [],
    );
    const lowEvents = events.filter((e) => e.type === "balance.low");
    if (alerted) breaches.push(...lowBalanceBreaches(alerted, events));
    const balanceLowDelivered = lowEvents.filter((e) => e.delivery?.status === "delivered" && received.has(e.id)).length;
    const balanceLowLine = alerted
      ? `balance.low: ${alerted.partner}@${alerted.chainId}'s alert at ${alerted.threshold} wei (set at ${seconds(alerted.setAtMs)} s); ` +
        lowEvents.map((e) => `recorded at ${seconds(e.createdAt.getTime() - loadStartedAt)} s at balance ${(e.payload as { balance: string }).balance}, ${e.delivery?.status ?? "no delivery"} after ${e.delivery?.attempts ?? 0} attempts`).join("; ")
      : "balance.low: no alert was set";

    const count = <T>(items: readonly T[], key: (item: T) => string) => {
      const counts = new Map<string, number>();
      for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
      return [...counts.entries()].map(([k, n]) => `${k} ${n}`).join(", ");
    };
    const lost = open.length + notPosted.length + final.filter((w) => !told.has(`${w.type}:${w.id}`)).length;
    const duplicated = doubles + conflicts.length + offRecord;
    const lines = [
      `Fault test, seed ${SEED} (FAULTS_SEED=${SEED} replays its faults and money moves): ${seconds(loadEndedAt - loadStartedAt)} s of load at ${RATE} operations/s on ${lanes.length} hot wallets of ${partners.length} partners`,
      `  webhook retries start at ${WEBHOOK_RETRY_BASE_MS} ms (WEBHOOK_RETRY_BASE_MS; the default 10 s would take an hour to drain a minute of failures)`,
      `operations: ${sweeps.length} sweeps (${count(sweeps, (s) => `${planOf.get(s.id) ?? "other"} ${assetOf(s)}`)}), ${revocations.length} revocations, ${events.length} events; ${operations.reduce((n, o) => n + o.posts - 1, 0)} POSTs retried`,
      `outcomes: sweeps ${count(sweeps, (s) => s.status + (s.reason ? `/${s.reason}` : ""))}; revocations ${count(revocations, (r) => r.status + (r.reason ? `/${r.reason}` : ""))}`,
      `faults injected (${injected.length}), seconds after the load started:`,
      ...injected.map(
        (f) =>
          `  ${seconds(f.startedMs).padStart(6)} to ${seconds(f.recoveredMs).padStart(6)}  ${describeFault(f.fault)}` +
          `${f.inFlight === undefined ? "" : `, ${f.inFlight} transactions in flight`}${f.error ? " (FAILED)" : ""}`,
      ),
      `money moves (${performed.length}), seconds after the load started:`,
      ...performed.map(
        (m) =>
          `  ${seconds(m.atMs).padStart(6)}  ${describeMoneyMove(m.move)}: ` +
          (m.error
            ? "FAILED"
            : m.withdrawals
              ? m.withdrawals.length === 0
                ? "nothing to withdraw"
                : m.withdrawals.map((w) => `${nameOf(w.partnerId)}@${w.chainId} ${w.feesDue} wei due`).join(", ")
              : `${m.threshold} wei`),
      ),
      `unplanned exits (the process ended by itself; restarted as an orchestrator would): ${exits.length}`,
      ...exits.map((e) => `  ${seconds(e.atMs).padStart(6)}  ${e.service} exited with ${e.code}; its last lines:\n${e.lastLines.map((l) => `      ${l.slice(0, 400)}`).join("\n")}`),
      `lost: ${lost} (operations not final or untold)`,
      `duplicated: ${duplicated} (deposits swept twice ${doubles}, nonces with two contents ${conflicts.length}, nonces mined off the record ${offRecord})`,
      `replacements: ${replacements.length} stored (${count(replacements, (t) => `chain ${t.chainId}`) || "none"}), ${replacements.filter((t) => t.status === "confirmed").length} of them mined; ` +
        `the chain-sender running now counts ${replacedMetric} in sweep_replacements_total (since it last started)`,
      `withdrawals: ${withdrawals.length} batches (${count(withdrawals, (b) => b.status + (b.reason ? `/${b.reason}` : "") + (b.status === "confirmed" && b.transactions.length === 0 ? " with nothing left to send" : ""))}), ` +
        `${withdrawalsBooked} booked as value and gas; the treasury holds ${treasury.join(", ")}`,
      `events: ${events.length}, ${undelivered.length} undelivered; the receiver got ${deliveries} deliveries`,
      balanceLowLine,
      "ledger, each gas wallet's balance on chain:",
      ...ledgerLines.map((l) => `  ${l}`),
      `time to drain: ${seconds(drain.ms)} s after the load stopped${drain.complete ? "" : ` (deadline of ${seconds(DRAIN_DEADLINE_MS)} s reached)`}`,
      ...(breaches.length > 0 ? ["breaches:", ...breaches.map((b) => `  ${b}`)] : []),
      ...(load.errors.length > 0 ? ["load errors:", ...load.errors.map((e) => `  ${e}`)] : []),
    ];
    return { lines, lost, duplicated, breaches, exercised: { replacementsInTheStall, withdrawalsBooked, balanceLowDelivered } };
  }

  /** The services' logs, ended processes included, where a failed run can be read (FAULTS_LOG_DIR, or a new temporary directory). */
  function keepLogs(): void {
    const dir = process.env.FAULTS_LOG_DIR ?? mkdtempSync(path.join(tmpdir(), "faults-logs-"));
    mkdirSync(dir, { recursive: true });
    for (const { name, output } of supervisor?.endedLogs ?? []) writeFileSync(path.join(dir, `${name}.log`), output);
    for (const [name, service] of stack.services) writeFileSync(path.join(dir, `${name}.log`), service.output());
    process.stdout.write(`services' logs: ${dir}\n`);
  }
});
