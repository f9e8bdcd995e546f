import {
  activeHotWallet,
  createTestPartner,
  eventually,
  fundedDeposit,
  makeCertificates,
  partnerApi,
  startReceiver,
  startStack,
  type Receiver,
  type LogLine,
  type ServiceName,
  type Stack,
  type TestCertificates,
  type TestPartner,
} from "@sweep/testkit";
import { Wallet, parseEther } from "ethers";

// A partner asks about one sweep; the on-call engineer has its id and greps it in the five
// services' logs, at the production log level: each service names the sweep, and each line gives
// the next id to follow (request → batch → transaction → settlement → webhook delivery).

const CHAIN_ID = 97;

describe("an on-call engineer follows one sweep through the logs", () => {
  let certificates: TestCertificates;
  let receiver: Receiver;
  let stack: Stack;
  let partner: TestPartner;

  const api = partnerApi(() => stack.api, () => partner.auth);
  /** `grep <text>` in a service's output, each hit read as the JSON line it is */
  const grep = (service: ServiceName, text: string): LogLine[] =>
    stack.services
      .get(service)!
      .logLines()
      .filter((line) => JSON.stringify(line).includes(text));

  beforeAll(async () => {
    certificates = makeCertificates();
    receiver = await startReceiver(certificates);
    stack = await startStack({ env: { LOG_LEVEL: "info", NODE_EXTRA_CA_CERTS: certificates.caPath, WEBHOOK_ALLOW_PRIVATE: "true" } });
    partner = await createTestPartner(stack.db, "follow");
    await stack.chain(CHAIN_ID).setBalance(partner.gasWallet, parseEther("10"));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    certificates?.remove();
  }, 60_000);

  it("finds the sweep in every service by its id, from the API request to the webhook delivery", async () => {
    const webhook = await api("PUT", "/v1/webhook", { url: receiver.url("/hooks") });
    receiver.route("/hooks", webhook.body.secret, (res) => res.writeHead(204).end());
    const hotWallet = await activeHotWallet(api, CHAIN_ID, Wallet.createRandom().address);
    const deposit = await fundedDeposit(stack.chain(CHAIN_ID), hotWallet.delegate, 4_200n);

    const response = await fetch(`${stack.api}/v1/sweeps`, {
      method: "POST",
      headers: { ...partner.auth, "content-type": "application/json" },
      body: JSON.stringify({ chain_id: CHAIN_ID, hot_wallet: hotWallet.address, account: deposit.owner.address, token: "USDT", authorization: deposit.authorization }),
    });
    expect(response.status).toBe(202);
    const sweepId = ((await response.json()) as { id: string }).id;
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^req_/);

    const delivered = await eventually("the sweep.swept delivery", async () =>
      receiver.received("/hooks").map((d) => JSON.parse(d.body) as { id: string; type: string; data: { id: string; tx_hash?: string } }).find((e) => e.type === "sweep.swept" && e.data.id === sweepId),
    );
    // The dispatcher logs the attempt once it has recorded it, just after the receiver answered.
    const [delivery] = await eventually("the dispatcher's line", async () => {
      const lines = grep("webhook-dispatcher", sweepId).filter((l) => l.message === "delivery attempt recorded");
      return lines.length > 0 ? lines : undefined;
    });

    // One grep of the sweep's id: every service has logged it.
    for (const service of ["api-gateway", "batcher", "chain-sender", "ledger", "webhook-dispatcher"] as const) expect([service, grep(service, sweepId).length > 0]).toEqual([service, true]);

    // The API's access line: the request id it answered, the partner, the sweep.
    expect(grep("api-gateway", sweepId)).toEqual([
      expect.objectContaining({ message: "request", method: "POST", route: "/v1/sweeps", status: 202, requestId, partnerId: partner.partnerId, sweepId, chainId: CHAIN_ID }),
    ]);

    // The batcher's claim gives the batch.
    const [claimed] = grep("batcher", sweepId);
    expect(claimed).toMatchObject({ message: "batch claimed", partnerId: partner.partnerId, chainId: CHAIN_ID, sweepIds: [sweepId] });
    const batchId = claimed!.batchId as string;

    // The batch's id in the chain-sender's log gives the transaction: stored, broadcast, confirmed, one hash.
    const sent = grep("chain-sender", batchId);
    const hash = delivered.data.tx_hash!;
    expect(sent).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ message: "transaction signed and stored", batchId, sweepIds: [sweepId], transactionId: expect.any(String), hash, nonce: expect.any(String) }),
        expect.objectContaining({ message: "transaction confirmed", batchId, hash }),
      ]),
    );

    // The ledger's settlement and the dispatcher's delivery name the sweep.
    expect(grep("ledger", sweepId)).toEqual([expect.objectContaining({ message: "sweep batch settled", batchId, hash, sweepIdsByStatus: { swept: [sweepId] } })]);
    expect(delivery).toMatchObject({ eventId: delivered.id, eventType: "sweep.swept", partnerId: partner.partnerId, sweepId, outcome: "delivered" });
  }, 90_000);
});
