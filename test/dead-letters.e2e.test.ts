import {
  activeHotWallet,
  createTestPartner,
  eventually,
  blocksRead,
  fundedDeposit,
  makeCertificates,
  openWorkQueues,
  partnerApi,
  runSweepctl,
  startReceiver,
  startStack,
  type Receiver,
  type ServiceName,
  type Stack,
  type TappedMessage,
  type TestCertificates,
  type TestPartner,
  type WorkQueueTap,
  type WorkQueues,
} from "@sweep/testkit";
import { contractAt } from "@sweep/contracts";
import { Wallet, parseEther } from "ethers";

// The on-call story: the messages that carried a sweep's work die in their work queues (a service
// kept failing on them, or refused them). The engineer finds them with `sweepctl dlq list` and
// `dlq show`, brings the services back, replays one by id and then the rest, and nothing happens
// twice: the work was already done. Everything real: the services as processes, RabbitMQ with the
// services' own topology, Postgres, anvil, a webhook receiver; copies of the very messages the
// services published, taken off a tap queue bound beside the work queues.

const CHAIN_ID = 97;
const CONSUMERS: ServiceName[] = ["batcher", "chain-sender", "ledger", "webhook-dispatcher"];

interface ShownMessage {
  message_id: string;
  type: string;
  reason: string;
  deliveries: number | null;
  original_queue: string;
  dead_lettered_at: string;
  payload: string;
}

describe("dead letters: the on-call engineer finds dead work and replays it, and work already done changes nothing", () => {
  let certificates: TestCertificates;
  let receiver: Receiver;
  let stack: Stack;
  let partner: TestPartner;
  let workQueues: WorkQueues;
  let tap: WorkQueueTap;
  const hotWallet = Wallet.createRandom().address;
  /** every message the services published for the hot wallet and the sweep */
  let carried: TappedMessage[];
  /** the sweep's own work: these die after the delivery limit, the others are refused */
  let sweepWork: TappedMessage[];
  let before: Awaited<ReturnType<typeof snapshot>>;

  const api = partnerApi(() => stack.api, () => partner.auth);
  const names = () => workQueues.topology.names;

  /** sweepctl as the engineer runs it, with the stack's configuration; --json output parsed. */
  async function sweepctl(...args: string[]) {
    const run = await runSweepctl(args, stack.env);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- shapes are checked by the assertions
    return { ...run, json: (args.includes("--json") && run.code === 0 ? JSON.parse(run.stdout) : undefined) as any };
  }

  /** Everything the work could change: the partner's rows, what the receiver heard, and the chain. */
  async function snapshot() {
    const { db } = stack;
    const where = { partnerId: partner.partnerId };
    const gasWallet = await db.gasWallet.findUniqueOrThrow({ where });
    const chain = stack.chain(CHAIN_ID);
    const usdt = contractAt("DevToken", chain.usdt.address, chain.provider);
    return {
      sweeps: await db.sweep.findMany({ where, orderBy: { seq: "asc" } }),
      hotWallets: await db.hotWallet.findMany({ where, orderBy: { createdAt: "asc" } }),
      batches: await db.batch.findMany({ where: { gasWalletId: gasWallet.id }, include: { items: true }, orderBy: { createdAt: "asc" } }),
      transactions: await db.chainTransaction.findMany({ where: { gasWalletId: gasWallet.id }, orderBy: { nonce: "asc" } }),
      ledgerEntries: await db.ledgerEntry.findMany({ where, orderBy: { id: "asc" } }),
      events: await db.event.findMany({ where, orderBy: { createdAt: "asc" } }),
      deliveries: await db.webhookDelivery.findMany({ where, orderBy: { seq: "asc" } }),
      outbox: await db.outboxMessage.count(),
      received: receiver.received("/hooks").length,
      gasWalletNonce: await chain.provider.getTransactionCount(gasWallet.address, "latest"),
      gasWalletBalance: await chain.provider.getBalance(gasWallet.address, "latest"),
      hotWalletUsdt: (await usdt.getFunction("balanceOf")(hotWallet)) as bigint,
    };
  }

  /** The queues of the stack's topology that hold messages (work queues, their delay tiers, dead-letter queues), with their counts. */
  async function messagesLeft(): Promise<Record<string, number>> {
    const { topology } = workQueues;
    const queues = topology.workQueues.flatMap((q) => [q.name, names().deadLetter(q.name), ...topology.retryDelaysMs.map((ms) => names().delay(q.name, ms))]);
    const counts = Object.fromEntries(await Promise.all(queues.map(async (q) => [q, await workQueues.count(q)] as const)));
    return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
  }

  const payload = (m: TappedMessage) => JSON.parse(m.content.toString("utf8")) as Record<string, string>;

  beforeAll(async () => {
    certificates = makeCertificates();
    receiver = await startReceiver(certificates);
    stack = await startStack({ blockTime: 1, env: { NODE_EXTRA_CA_CERTS: certificates.caPath, WEBHOOK_ALLOW_PRIVATE: "true" } });
    partner = await createTestPartner(stack.db, "dead letters");
    await stack.chain(CHAIN_ID).setBalance(partner.gasWallet, parseEther("10"));
    workQueues = await openWorkQueues(stack.env);
    tap = await workQueues.tap();
  }, 180_000);

  afterAll(async () => {
    await tap?.close();
    await workQueues?.close();
    await stack?.stop();
    await receiver?.close();
    certificates?.remove();
  }, 60_000);

  it("a sweep goes all the way to swept, booked and told to the partner", async () => {
    const set = await api("PUT", "/v1/webhook", { url: receiver.url("/hooks") });
    receiver.route("/hooks", set.body.secret, (res) => res.writeHead(204).end());
    const { delegate } = await activeHotWallet(api, CHAIN_ID, hotWallet);

    const { owner, authorization } = await fundedDeposit(stack.chain(CHAIN_ID), delegate, 4_200n);
    // Its deposit is read before the sweep names the address: no deposit.detected joins the story's two events.
    await blocksRead(stack.db, CHAIN_ID, await stack.chain(CHAIN_ID).provider.getBlockNumber());
    const posted = await api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: owner.address, token: "USDT", authorization });
    const sweepId: string = posted.body.id;
    const swept = await eventually("the sweep to be swept", async () => {
      const sweep = (await api("GET", `/v1/sweeps/${sweepId}`)).body;
      return sweep.status === "swept" ? sweep : undefined;
    });
    expect(swept).toMatchObject({ swept_amount: "4200", tx_hash: expect.any(String) });
    await eventually("both events delivered", async () => {
      const delivered = await stack.db.webhookDelivery.count({ where: { partnerId: partner.partnerId, status: "delivered" } });
      return delivered === 2 ? true : undefined;
    });

    // Settled: no message left anywhere, nothing more to publish, and two reads a few blocks apart agree.
    before = await eventually(
      "the stack to settle",
      async () => {
        const [left, unpublished] = [await messagesLeft(), await stack.db.outboxMessage.count({ where: { publishedAt: null } })];
        if (Object.keys(left).length > 0 || unpublished > 0) return undefined;
        const first = await snapshot();
        await new Promise((r) => setTimeout(r, 2_500));
        const second = await snapshot();
        return JSON.stringify(first, bigints) === JSON.stringify(second, bigints) ? second : undefined;
      },
      60_000,
      250,
    );
    expect(before.sweeps.map((s) => s.status)).toEqual(["swept"]);
    expect(before.ledgerEntries.map((e) => e.kind)).toEqual(expect.arrayContaining(["gas", "topup"]));
    expect(before.events.map((e) => e.type).sort()).toEqual(["hot_wallet.active", "sweep.swept"]);
    expect(before.received).toBe(2);

    carried = await tap.take();
    await tap.close();
    const sweep = before.sweeps[0]!;
    const sweepTx = before.transactions.find((t) => t.batchId === sweep.batchId)!;
    const sweptEvent = before.events.find((e) => e.type === "sweep.swept")!;
    const find = (type: string, matches: (p: Record<string, string>) => boolean) => carried.find((m) => m.type === type && matches(payload(m)));
    sweepWork = [
      find("sweep.queued", (p) => p.sweepId === sweep.id),
      find("batch.ready", (p) => p.batchId === sweep.batchId),
      find("tx.outcome", (p) => p.transactionId === sweepTx.id),
      find("event.recorded", (p) => p.eventId === sweptEvent.id),
    ].filter((m) => m !== undefined);
    expect(sweepWork.map((m) => m.type)).toEqual(["sweep.queued", "batch.ready", "tx.outcome", "event.recorded"]);
    expect(sweepWork.map((m) => m.queue)).toEqual([names().batcher(CHAIN_ID), names().sender(CHAIN_ID), names().ledger(), names().events()]);
    // The hot wallet's deployment and the wakes travelled the same roads.
    expect(carried.map((m) => m.type)).toEqual(expect.arrayContaining(["hot_wallet.deploy", "hot_wallet.wake"]));
  }, 90_000);

  it("a poison message is delivered exactly the bounded number of times, then `dlq show` says delivery_limit with that count", async () => {
    const ledgerDlq = names().deadLetter(names().ledger());
    // An outcome of a transaction nobody stored: the ledger fails on it every time.
    const poison = await workQueues.publish("tx.outcome", { chainId: CHAIN_ID, transactionId: "00000000-0000-4000-8000-000000000000" });
    await eventually("the poison message in the ledger's DLQ", async () => ((await workQueues.count(ledgerDlq)) === 1 ? true : undefined), 30_000, 200);

    const attempts = stack.services.get("ledger")!.logLines().filter((line) => line.messageId === poison && String(line.message).startsWith("handler failed"));
    expect(attempts.map((line) => line.deliveries)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(attempts.at(-1)!.message).toBe("handler failed at the delivery limit; dead-lettered");

    const shown = await sweepctl("--json", "dlq", "show", ledgerDlq);
    expect(shown.json).toEqual({
      queue: ledgerDlq,
      total: 1,
      messages: [
        {
          message_id: poison,
          type: "tx.outcome",
          reason: "delivery_limit",
          deliveries: workQueues.topology.deliveryLimit + 1,
          original_queue: names().ledger(),
          dead_lettered_at: expect.any(String),
          payload: JSON.stringify({ chainId: CHAIN_ID, transactionId: "00000000-0000-4000-8000-000000000000" }),
        },
      ],
    });
    // Replaying it would only fail six times more: the engineer drops it, by id, and is told what went.
    const purged = await sweepctl("dlq", "purge", ledgerDlq, "--id", poison);
    expect(purged).toMatchObject({ code: 0, stdout: `purged 1 message(s) from ${ledgerDlq} with id ${poison}\n` });
    expect(await workQueues.count(ledgerDlq)).toBe(0);
  }, 60_000);

  it("copies of every message that carried the work die in their queues; `dlq list` and `dlq show` tell where, what, why and how often", async () => {
    await Promise.all(CONSUMERS.map((name) => stack.services.get(name)!.stop()));
    for (const message of carried) {
      const death = sweepWork.includes(message) ? "delivery_limit" : "rejected";
      expect(await workQueues.deadLetter(message, death)).toBe(death === "delivery_limit" ? workQueues.topology.deliveryLimit + 1 : 1);
    }

    const perQueue = new Map<string, TappedMessage[]>();
    for (const m of carried) perQueue.set(names().deadLetter(m.queue), [...(perQueue.get(names().deadLetter(m.queue)) ?? []), m]);
    const listed = await sweepctl("--json", "dlq", "list");
    for (const { queue, messages, oldest_age_seconds } of listed.json.queues as Array<{ queue: string; messages: number; oldest_age_seconds: number | null }>) {
      expect({ queue, messages }).toEqual({ queue, messages: perQueue.get(queue)?.length ?? 0 });
      expect(oldest_age_seconds === null).toBe(messages === 0);
    }

    const shown = await Promise.all([...perQueue.keys()].map(async (queue) => (await sweepctl("--json", "dlq", "show", queue)).json as { queue: string; messages: ShownMessage[] }));
    for (const { queue, messages } of shown) {
      expect(messages).toEqual(
        perQueue.get(queue)!.map((m) => ({
          message_id: m.messageId,
          type: m.type,
          reason: sweepWork.includes(m) ? "delivery_limit" : "rejected",
          deliveries: sweepWork.includes(m) ? workQueues.topology.deliveryLimit + 1 : 1,
          original_queue: m.queue,
          dead_lettered_at: expect.any(String),
          payload: m.content.toString("utf8"),
        })),
      );
    }
    // As people read it, and a name that is not a dead-letter queue: one line on stderr, exit code 1.
    const [limited, unknown] = await Promise.all([sweepctl("dlq", "show", names().deadLetter(names().batcher(CHAIN_ID)), "--limit", "1"), sweepctl("dlq", "show", names().ledger())]);
    const batcherDead = perQueue.get(names().deadLetter(names().batcher(CHAIN_ID)))!;
    expect(limited.stdout.split("\n").slice(0, 2)).toEqual([
      `${names().deadLetter(names().batcher(CHAIN_ID))}: the first 1 of ${batcherDead.length} message(s)`,
      expect.stringMatching(new RegExp(`^${batcherDead[0]!.messageId}  ${batcherDead[0]!.type.replace(".", "\\.")}  (delivery_limit after 6 deliveries|rejected after 1 delivery)  from `)),
    ]);
    expect(unknown).toEqual({ code: 1, stdout: "", stderr: expect.stringMatching(`^sweepctl: ${names().ledger()} is a work queue; its dead letters are in ${names().deadLetter(names().ledger())}`), json: undefined });
    expect(unknown.stderr.split("\n")).toHaveLength(2);
  }, 90_000);

  it("replayed once the services are back, one by id and then the rest, they change nothing", async () => {
    await Promise.all(CONSUMERS.map((name) => stack.restart(name)));
    const ledgerDlq = names().deadLetter(names().ledger());
    const outcome = sweepWork.find((m) => m.type === "tx.outcome")!;

    const one = await sweepctl("--json", "dlq", "replay", ledgerDlq, "--id", outcome.messageId);
    expect(one.json).toEqual({ queue: ledgerDlq, replayed: 1, messages: [{ message_id: outcome.messageId, type: "tx.outcome", to: names().ledger() }] });

    const dlqs = [...new Set(carried.map((m) => names().deadLetter(m.queue)))];
    const replayed = await Promise.all(dlqs.map(async (queue) => (await sweepctl("--json", "dlq", "replay", queue)).json as { messages: Array<{ message_id: string; to: string }> }));
    const all = [one.json, ...replayed].flatMap((r) => r.messages as Array<{ message_id: string; to: string }>);
    expect(all.map((m) => m.message_id).sort()).toEqual(carried.map((m) => m.messageId).sort());
    for (const m of all) expect(m.to).toBe(carried.find((c) => c.messageId === m.message_id)!.queue);

    // Handled: the queues drained, a block passed, and stopping the services (which settles
    // what they hold) leaves nothing behind: no message unacknowledged, retried, or dead again.
    await eventually(
      "the replayed messages to be taken",
      async () => {
        const left = await messagesLeft();
        if (Object.keys(left).length > 0) throw new Error(`still queued: ${JSON.stringify(left)}`);
        return true;
      },
      30_000,
      200,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    await Promise.all(CONSUMERS.map((name) => stack.services.get(name)!.stop()));
    expect(await messagesLeft()).toEqual({});
    expect(await stack.db.outboxMessage.count({ where: { publishedAt: null } })).toBe(0);

    expect(JSON.parse(JSON.stringify(await snapshot(), bigints))).toEqual(JSON.parse(JSON.stringify(before, bigints)));
  }, 90_000);
});

function bigints(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
