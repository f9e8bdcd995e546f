import { createTestPartner, eventually, fundedDeposit, partnerApi, queueNames, readMetrics, startStack, type ServiceName, type Stack, type TestPartner } from "@sweep/testkit";
import { Wallet, parseEther } from "ethers";
import { makeCertificates, startReceiver, type Receiver, type TestCertificates } from "@sweep/testkit";

// A partner hears outcomes by webhook, everything real: the API, the pipeline and the dispatcher
// as processes, a local HTTPS receiver whose CA the services trust (NODE_EXTRA_CA_CERTS) and that
// checks every signature with its own HMAC code. WEBHOOK_ALLOW_PRIVATE lets the local receiver in.
// Afterwards each service's /metrics shows what this story made it do, in counts; then the gas
// wallet runs dry under a sweep, and the ledger's and the dispatcher's gauges show what waits.

const CHAIN_ID = 97;

interface EventBody {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

describe("a partner hears its outcomes by webhook", () => {
  let certificates: TestCertificates;
  let receiver: Receiver;
  let stack: Stack;
  let partner: TestPartner;
  let secret: string;
  let delegate: string;
  const hotWallet = Wallet.createRandom().address;

  const api = partnerApi(() => stack.api, () => partner.auth);
  const events = () => receiver.received("/hooks").map((d) => ({ ...d, event: JSON.parse(d.body) as EventBody }));
  const delivered = (type: string, subject?: string) =>
    eventually(`a ${type} delivery`, async () => events().find((d) => d.event.type === type && (subject === undefined || d.event.data.id === subject)), 60_000, 250);

  const metricsOf = (name: ServiceName) => readMetrics(stack.services.get(name)!.metricsPort);
  const chain = { chain_id: String(CHAIN_ID) };

  /** A first sweep of a new deposit address holding USDT, with its authorization of the hot wallet's delegate. */
  async function postSweep() {
    const { owner, authorization } = await fundedDeposit(stack.chain(CHAIN_ID), delegate, 4_200n);
    return api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: owner.address, token: "USDT", authorization });
  }

  beforeAll(async () => {
    certificates = makeCertificates();
    receiver = await startReceiver(certificates);
    stack = await startStack({ blockTime: 1, env: { NODE_EXTRA_CA_CERTS: certificates.caPath, WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_BASE_MS: "500" } });
    partner = await createTestPartner(stack.db, "webhooks");
    await stack.chain(CHAIN_ID).setBalance(partner.gasWallet, parseEther("10"));
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    certificates?.remove();
  }, 60_000);

  it("sets a webhook, receives the test event and the outcomes of a hot wallet and a sweep, each signed and in the GET shape", async () => {
    const set = await api("PUT", "/v1/webhook", { url: receiver.url("/hooks"), low_balance: [{ chain_id: CHAIN_ID, threshold: "1000" }] });
    expect(set).toMatchObject({ status: 200, body: { url: receiver.url("/hooks"), secret: expect.stringMatching(/^whsec_/), low_balance: [{ chain_id: CHAIN_ID, threshold: "1000", low: false }] } });
    secret = set.body.secret;
    receiver.route("/hooks", secret, (res) => res.writeHead(204).end());

    const test = await api("POST", "/v1/webhook/test");
    expect(test.status).toBe(202);
    const testDelivery = await delivered("webhook.test");
    expect(testDelivery.event).toMatchObject({ id: test.body.id, data: { message: expect.any(String) } });
    expect(testDelivery.headers).toMatchObject({ "service-event": "webhook.test", "service-delivery": test.body.id, "content-type": "application/json" });
    expect(testDelivery.headers["user-agent"]).toMatch(/^[\w-]+\/\d+\.\d+\.\d+/);

    const registered = await api("POST", "/v1/hot-wallets", { chain_id: CHAIN_ID, address: hotWallet });
    delegate = registered.body.delegate;
    const active = await delivered("hot_wallet.active");
    expect(active.event.data).toMatchObject({ address: hotWallet, delegate, status: "active" });

    const sweep = await postSweep();
    const swept = await delivered("sweep.swept", sweep.body.id);
    expect(swept.event.data).toEqual((await api("GET", `/v1/sweeps/${sweep.body.id}`)).body);

    expect(events().every((d) => d.verified)).toBe(true);
    const log = await api("GET", "/v1/webhook/deliveries");
    const byId = new Map((log.body.items as Array<{ id: string; status: string; attempts: number }>).map((d) => [d.id, d]));
    for (const { event } of events()) expect(byId.get(event.id)).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("retries a delivery the receiver refused, signed anew, until it answers 2xx", async () => {
    receiver.route("/hooks", secret, (res, n) => res.writeHead(n === 1 ? 500 : 200).end());
    const test = await api("POST", "/v1/webhook/test");
    await eventually("two attempts", async () => (receiver.received("/hooks").length >= 2 ? true : undefined), 30_000, 250);
    const [refused, accepted] = receiver.received("/hooks");
    expect([refused!.verified, accepted!.verified]).toEqual([true, true]);
    expect(JSON.parse(accepted!.body).id).toBe(test.body.id);
    const delivery = await eventually("the delivery delivered", async () => {
      const items = (await api("GET", "/v1/webhook/deliveries")).body.items as Array<{ id: string; status: string }>;
      return items.find((d) => d.id === test.body.id && d.status === "delivered");
    });
    expect(delivery).toMatchObject({ attempts: 2, last_status_code: 200, last_error: null });
  });

  it("shows in each service's metrics what it did for the partner", async () => {
    const names = queueNames(stack.env.AMQP_PREFIX);
    const [sweep] = (await api("GET", "/v1/sweeps")).body.items as Array<{ id: string; kind: string; gas: string }>;

    // The API timed each request by its route's template, never by its path, on its management port.
    const gateway = await metricsOf("api-gateway");
    expect(gateway.sum("sweep_http_request_duration_seconds_count", { method: "POST", route: "/v1/sweeps", status: "202" })).toBe(1);
    expect(gateway.sum("sweep_http_request_duration_seconds_count", { method: "GET", route: "/v1/sweeps/:id", status: "200" })).toBe(1);
    expect(gateway.find("sweep_http_request_duration_seconds_count").filter((s) => s.labels.route!.includes(sweep!.id))).toEqual([]);
    expect(gateway.sum("sweep_outbox_messages")).toEqual(expect.any(Number));

    // The batcher claimed the sweep into a batch of one.
    const batcher = await metricsOf("batcher");
    expect([batcher.sum("sweep_batch_size_count", { ...chain, purpose: "sweep" }), batcher.sum("sweep_batch_size_sum", { ...chain, purpose: "sweep" })]).toEqual([1, 1]);

    // The chain-sender watched the delegate's deployment and the sweep's transaction from broadcast to confirmation.
    const sender = await metricsOf("chain-sender");
    expect(sender.sum("sweep_confirmation_seconds_count", { ...chain, purpose: "deploy_delegate" })).toBe(1);
    expect(sender.sum("sweep_confirmation_seconds_count", { ...chain, purpose: "sweep" })).toBe(1);
    expect(sender.sum("sweep_confirmation_seconds_sum", { ...chain, purpose: "sweep" })).toBeGreaterThan(0);

    // The ledger counted the sweep swept once, with the gas the partner sees on it.
    const ledger = await metricsOf("ledger");
    expect(ledger.find("sweep_sweeps_final_total").map((s) => [s.labels, s.value])).toEqual([[{ ...chain, status: "swept", reason: "none" }, 1]]);
    expect([ledger.sum("sweep_gas_per_sweep_count", { ...chain, kind: sweep!.kind }), ledger.sum("sweep_gas_per_sweep_sum", { ...chain, kind: sweep!.kind })]).toEqual([1, Number(sweep!.gas)]);

    // The dispatcher counted each delivery and the one attempt the receiver refused with a 500.
    const dispatcher = await eventually("the attempts counted", async () => {
      const metrics = await metricsOf("webhook-dispatcher");
      return (metrics.sum("sweep_webhook_attempts_total") ?? 0) >= 5 ? metrics : undefined;
    });
    // One 2xx per delivery in the partner's log: the test events, the hot wallet's, the sweep's, and a deposit.detected when the
    // firewall read the deposit's block after the sweep put its address in the inventory.
    const deliveries = (await api("GET", "/v1/webhook/deliveries")).body.items as Array<{ status: string }>;
    expect(deliveries.every((d) => d.status === "delivered")).toBe(true);
    expect(dispatcher.find("sweep_webhook_attempts_total").map((s) => [s.labels.outcome, s.labels.reason, s.value])).toEqual([
      ["delivered", "http_2xx", deliveries.length],
      ["failed", "http_5xx", 1],
    ]);
    // Every delivery was delivered: none pending, none waiting.
    expect(["pending", "oldest_age_seconds", "overdue_seconds"].map((gauge) => dispatcher.sum(`sweep_webhook_deliveries_${gauge}`))).toEqual([0, 0, 0]);

    // Every chain's sweeps and revocations are final, at every stage; the gas wallet is above its threshold.
    const ledgerNow = await metricsOf("ledger");
    const backlog = ledgerNow.find("sweep_work_items");
    expect(backlog).toHaveLength(2 * 2 * 4);
    expect(new Set(backlog.map((s) => s.labels.chain_id))).toEqual(new Set(["97", "11155111"]));
    expect([...backlog, ...ledgerNow.find("sweep_work_oldest_wait_seconds")].filter((s) => s.value !== 0)).toEqual([]);
    expect(ledgerNow.find("sweep_gas_wallets_low", chain).map((s) => [s.labels.has_work, s.value])).toEqual([["true", 0], ["false", 0]]);

    // Every consumer timed the messages it took (their lag) and handled them; nothing waits in a dead-letter queue.
    const consumed: Array<[ServiceName, string]> = [
      ["batcher", names.batcher(CHAIN_ID)],
      ["chain-sender", names.sender(CHAIN_ID)],
      ["ledger", names.ledger()],
      ["webhook-dispatcher", names.events()],
    ];
    for (const [service, queue] of consumed) {
      const metrics = await metricsOf(service);
      const handled = metrics.sum("sweep_messages_total", { queue, outcome: "handled" });
      expect([service, handled]).toEqual([service, expect.any(Number)]);
      // Lag is timed on a message's first delivery only: a retried one was timed already.
      expect(metrics.sum("sweep_queue_lag_seconds_count", { queue })).toBeGreaterThan(0);
      expect([service, metrics.sum("sweep_queue_messages", { queue: names.deadLetter(queue) })]).toEqual([service, 0]);
      expect(metrics.sum("process_cpu_user_seconds_total")).toBeGreaterThan(0);
    }
    // Nothing consumes the unrouted queue; the ledger reports it, so an alert sees a message there.
    expect((await metricsOf("ledger")).sum("sweep_queue_messages", { queue: names.unrouted() })).toBe(0);
  });

  it("shows what waits while the gas wallet is dry: the wallet below its threshold, the sweep on it, the balance.low delivery pending", async () => {
    const lowWallets = (metrics: Awaited<ReturnType<typeof metricsOf>>) => Object.fromEntries(metrics.find("sweep_gas_wallets_low", chain).map((s) => [s.labels.has_work, s.value]));
    const sweepsWaiting = (metrics: Awaited<ReturnType<typeof metricsOf>>) => metrics.sum("sweep_work_items", { ...chain, work: "sweep" });

    // Below the threshold of 1000 wei: the reconciler records balance.low, whose delivery the receiver refuses for now.
    receiver.route("/hooks", secret, (res) => res.writeHead(503).end());
    await stack.chain(CHAIN_ID).setBalance(partner.gasWallet, 500n);
    const dry = await eventually("the dry gas wallet and its refused balance.low", async () => {
      const [ledger, dispatcher] = await Promise.all([metricsOf("ledger"), metricsOf("webhook-dispatcher")]);
      return lowWallets(ledger).false === 1 && dispatcher.sum("sweep_webhook_deliveries_pending") === 1 ? dispatcher : undefined;
    }, 60_000, 250);
    expect(dry.sum("sweep_webhook_deliveries_oldest_age_seconds")).toBeGreaterThan(0);
    receiver.route("/hooks", secret, (res) => res.writeHead(204).end());

    // A sweep the gas wallet cannot pay for: its attempt fails and it waits, queued, for the next one.
    const sweep = await postSweep();
    expect(sweep.status).toBe(202);
    await eventually("the sweep's attempt refused for lack of gas", async () => {
      const { body } = await api("GET", `/v1/sweeps/${sweep.body.id}`);
      return body.status === "queued" && body.reason === "insufficient_gas_balance" ? body : undefined;
    }, 30_000, 250);
    const waiting = await metricsOf("ledger");
    expect([lowWallets(waiting), sweepsWaiting(waiting)]).toEqual([{ true: 1, false: 0 }, 1]);

    // Topped up: the sweep goes through at its next attempt, and nothing waits any more.
    await stack.chain(CHAIN_ID).setBalance(partner.gasWallet, parseEther("10"));
    await delivered("sweep.swept", sweep.body.id);
    await delivered("balance.low");
    const [ledger, dispatcher] = await eventually("nothing waiting", async () => {
      const both = await Promise.all([metricsOf("ledger"), metricsOf("webhook-dispatcher")]);
      const [l, d] = both;
      return lowWallets(l).true === 0 && lowWallets(l).false === 0 && sweepsWaiting(l) === 0 && d.sum("sweep_webhook_deliveries_pending") === 0 ? both : undefined;
    }, 30_000, 250);
    expect(ledger.find("sweep_work_oldest_wait_seconds", chain).filter((s) => s.value !== 0)).toEqual([]);
    expect([dispatcher.sum("sweep_webhook_deliveries_oldest_age_seconds"), dispatcher.sum("sweep_webhook_deliveries_overdue_seconds")]).toEqual([0, 0]);
  });
});
