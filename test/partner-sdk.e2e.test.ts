import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { Contract, Wallet, parseEther } from "ethers";
import { Event as EventSchema } from "@sweep/api-contract";
import { signAuthorization, SweepApiError, SweepClient, type Deposit, type Event, type LedgerEntry, type Sweep } from "@sweep/client";
import { createTestPartner, eventually, fundedDeposit, sharedStack, type SharedStack, type TestPartner } from "@sweep/testkit";
import { startWebhookReceiver, type WebhookReceiver } from "../examples/webhook-receiver";

// A partner integrates with @sweep/client against the whole suite, everything real: first the
// README's quickstart (examples/first-sweep.ts) runs as a partner runs it, then the SDK's promises
// are held to: a retried POST makes one sweep, lists page to the end, waitForSweep ends, and every
// webhook the dispatcher signs passes verifyWebhook and the OpenAPI document's Event schema. It runs on
// the run's shared anvil stack: everything it reads is its own partner's.

const CHAIN_ID = 97;
const run = promisify(execFile);
const repoRoot = path.join(__dirname, "..");

describe("a partner's first sweep with the SDK", () => {
  let stack: SharedStack;
  let partner: TestPartner;
  let client: SweepClient;

  beforeAll(async () => {
    // The quickstart's receiver is plain http on this machine, as with `pnpm start` (the shared stack allows private addresses).
    stack = await sharedStack("anvil");
    partner = await createTestPartner(stack.db, "sdk partner");
    client = new SweepClient({ baseUrl: stack.api, apiKey: partner.apiKey });
  }, 180_000);

  afterAll(() => stack?.disconnect(), 60_000);

  it("runs the quickstart: a hot wallet, deposits signed and swept, the webhooks verified, then repeat sweeps", async () => {
    const chain = stack.chain(CHAIN_ID);
    const { stdout } = await run(path.join(repoRoot, "node_modules", ".bin", "tsx"), ["examples/first-sweep.ts"], {
      cwd: repoRoot,
      timeout: 240_000,
      env: { ...process.env, SWEEP_API_URL: stack.api, SWEEP_API_KEY: partner.apiKey, CHAIN_ID: String(CHAIN_ID), DEPOSITS: "4", RPC_URL: chain.rpcUrl, USDT_ADDRESS: chain.usdt.address },
    });
    expect(stdout.match(/4 webhooks sweep\.swept, each signature verified/g)).toHaveLength(2);
    expect(stdout).toMatch(/first sweeps \(first_new\): \d+ gas each on average, against \d+ for the classic top-up and transfer/);
    expect(stdout).toMatch(/repeat sweeps \(repeat\): \d+ gas each on average, against \d+ for the classic top-up and transfer: \d+ saved/);

    // What it printed is what the chain and the API hold.
    const hotWallet = /hot wallet (0x[0-9a-fA-F]{40}) registered/.exec(stdout)![1]!;
    const usdt = new Contract(chain.usdt.address, ["function balanceOf(address) view returns (uint256)"], chain.provider);
    expect(await usdt.getFunction("balanceOf")(hotWallet)).toBe(8n * 25_000_000n);
    const swept: Sweep[] = [];
    for await (const sweep of client.sweeps.list({ hot_wallet: hotWallet })) swept.push(sweep);
    expect(swept.map((s) => [s.status, s.kind, s.swept_amount])).toEqual([...Array(4).fill(["swept", "repeat", "25000000"]), ...Array(4).fill(["swept", "first_new", "25000000"])]);
  }, 300_000);

  describe("its promises", () => {
    let receiver: WebhookReceiver;
    let secret = "";
    const heard: Event[] = [];
    let delegate: string;
    const hotWallet = Wallet.createRandom().address;

    beforeAll(async () => {
      receiver = await startWebhookReceiver({ secret: () => secret, onEvent: (event) => void heard.push(event) });
      secret = (await client.webhook.set({ url: receiver.url })).secret;
      await stack.chain(CHAIN_ID).setBalance(partner.gasWallet, parseEther("10"));
      await client.hotWallets.register({ chain_id: CHAIN_ID, address: hotWallet });
      delegate = (await client.waitForHotWallet(CHAIN_ID, hotWallet, { timeoutMs: 60_000, intervalMs: 200 })).delegate;
    }, 90_000);

    afterAll(() => receiver?.close());

    it("makes one sweep of a POST whose answer was lost, retried with the same external_id", async () => {
      const { owner } = await fundedDeposit(stack.chain(CHAIN_ID), delegate, 1_000n);
      let posts = 0;
      // The API answers the first POST, and the answer is lost on the way back.
      const losingFetch: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        if ((input as Request).method === "POST" && ++posts === 1) throw new TypeError("fetch failed");
        return response;
      };
      const flaky = new SweepClient({ baseUrl: stack.api, apiKey: partner.apiKey, fetch: losingFetch, retry: { initialDelayMs: 10 } });
      const authorization = await signAuthorization(owner, { chainId: CHAIN_ID, address: delegate, nonce: 0 });

      const sweep = await flaky.sweeps.create({ chain_id: CHAIN_ID, hot_wallet: hotWallet, account: owner.address, token: "USDT", authorization });

      expect(posts).toBe(2);
      expect(sweep.external_id).toMatch(/^[0-9a-f-]{36}$/);
      const ofAccount: Sweep[] = [];
      for await (const s of client.sweeps.list({ account: owner.address })) ofAccount.push(s);
      expect(ofAccount.map((s) => s.id)).toEqual([sweep.id]);
      await expect(client.waitForSweep(sweep.id, { timeoutMs: 60_000, intervalMs: 200 })).resolves.toMatchObject({ status: "swept", swept_amount: "1000" });
    }, 90_000);

    it("pages through every sweep, newest first, and waits for rejected ones to end too", async () => {
      const created: Sweep[] = [];
      for (let i = 0; i < 5; i++) {
        // Deposit addresses that hold nothing: accepted, then rejected before sending.
        const owner = Wallet.createRandom();
        const authorization = await signAuthorization(owner, { chainId: CHAIN_ID, address: delegate, nonce: 0 });
        created.push(await client.sweeps.create({ chain_id: CHAIN_ID, hot_wallet: hotWallet, account: owner.address, token: "USDT", authorization, external_id: `page-${i}` }));
      }
      const firstPage = await client.sweeps.page({ hot_wallet: hotWallet, limit: 2 });
      expect(firstPage.items).toHaveLength(2);
      expect(firstPage.next_cursor).toEqual(expect.any(String));

      const listed: string[] = [];
      for await (const sweep of client.sweeps.list({ hot_wallet: hotWallet, limit: 2 })) listed.push(sweep.id);
      expect(listed.slice(0, 5)).toEqual(created.map((s) => s.id).reverse());
      expect(new Set(listed).size).toBe(listed.length);

      const ended = await client.waitForSweep(created[0]!.id, { timeoutMs: 60_000, intervalMs: 200 });
      expect(ended).toMatchObject({ status: "rejected", reason: "nothing_to_sweep" });
      // The same external_id returns the sweep as it is now, without a second one.
      await expect(client.sweeps.create({ chain_id: CHAIN_ID, hot_wallet: hotWallet, account: created[0]!.account, token: "USDT", external_id: "page-0" })).resolves.toMatchObject({ id: created[0]!.id, status: "rejected" });
    }, 90_000);

    it("reads the ledger of a period as finance closes it: each entry's balance after it, what its gas paid for, and the period's totals", async () => {
      // A period that has ended: what it holds no longer changes while the story reads it.
      const period = { chain_id: CHAIN_ID, created_after: new Date(Date.now() - 3_600_000).toISOString(), created_before: new Date().toISOString() };
      const entries: LedgerEntry[] = [];
      for await (const entry of client.ledger({ ...period, limit: 2 })) entries.push(entry);
      // At least the gas wallet's top-up and the delegate's deployment.
      expect(entries.map((e) => e.kind)).toEqual(expect.arrayContaining(["topup", "gas"]));
      expect(entries.find((e) => e.paid_for?.kind === "delegate_deployment")?.paid_for).toMatchObject({ hot_wallet: hotWallet, items: 0 });
      const summary = await client.ledgerSummary(period);
      expect(summary.chains).toHaveLength(1);
      const [chain] = summary.chains;
      expect(chain).toMatchObject({ chain_id: CHAIN_ID, opening_balance: "0", closing_balance: entries[0]!.balance_after, entries: entries.length });
      expect(BigInt(chain!.totals.gas) + BigInt(chain!.totals.withdrawal) + BigInt(chain!.totals.topup)).toBe(BigInt(chain!.closing_balance));
    }, 30_000);

    it("registers deposit addresses ahead of any deposit and lists the inventory page by page", async () => {
      const owners = Array.from({ length: 3 }, () => Wallet.createRandom());
      const addresses = await Promise.all(owners.map(async (owner) => ({ address: owner.address, authorization: await signAuthorization(owner, { chainId: CHAIN_ID, address: delegate, nonce: 0 }) })));
      const registered = await client.depositAddresses.register({ chain_id: CHAIN_ID, hot_wallet: hotWallet, addresses });
      expect(registered.map((a) => [a.address, a.delegation, a.delegate, a.authorization_nonce])).toEqual(owners.map((o) => [o.address, "authorized", delegate, 0]));

      const listed: string[] = [];
      for await (const entry of client.depositAddresses.list({ chain_id: CHAIN_ID, delegation: "authorized", limit: 2 })) listed.push(entry.address);
      expect(listed.slice(0, 3)).toEqual(owners.map((o) => o.address).reverse());
      const twice = client.depositAddresses.register({ chain_id: CHAIN_ID, hot_wallet: hotWallet, addresses: [addresses[0]!, addresses[0]!] });
      await expect(twice).rejects.toMatchObject({ status: 422, code: "invalid_address" });
    });

    it("hears of each deposit to a registered address once, as deposit.detected, and lists it confirmed on the address", async () => {
      const chain = stack.chain(CHAIN_ID);
      const owner = Wallet.createRandom();
      await client.depositAddresses.register({ chain_id: CHAIN_ID, hot_wallet: hotWallet, addresses: [{ address: owner.address, authorization: await signAuthorization(owner, { chainId: CHAIN_ID, address: delegate, nonce: 0 }) }] });
      const payer = Wallet.createRandom(chain.provider);
      await chain.setBalance(payer.address, parseEther("1"));
      await chain.mintUsdt(owner.address, 3_000_000n);
      await (await payer.sendTransaction({ to: owner.address, value: parseEther("0.01") })).wait();

      const confirmed = await eventually(
        "both deposits confirmed",
        async () => {
          const seen: Deposit[] = [];
          for await (const deposit of client.deposits.list({ address: owner.address, status: "confirmed" })) seen.push(deposit);
          return seen.length === 2 ? seen : undefined;
        },
        60_000,
        250,
      );
      expect(confirmed.map((d) => [d.token, d.amount])).toEqual([
        ["tBNB", parseEther("0.01").toString()],
        ["USDT", "3000000"],
      ]);
      const events = await eventually("their events", async () => {
        const detected = heard.filter((e) => e.type === "deposit.detected" && (e.data as Deposit).address === owner.address);
        return detected.length === 2 ? detected : undefined;
      });
      expect(events.map((e) => (e.data as Deposit).id).sort()).toEqual(confirmed.map((d) => d.id).sort());
      const [entry] = (await client.depositAddresses.page({ address: owner.address })).items;
      expect(entry!.recent_deposits.map((d) => d.id)).toEqual(confirmed.map((d) => d.id));
    }, 90_000);

    it("sets a sweep policy and reads it back, and is told the spec's code for a token the chain does not list", async () => {
      const set = await client.sweepPolicies.set({ chain_id: CHAIN_ID, token: "usdt", hot_wallet: hotWallet, enabled: false, min_balance: "1000000", schedule: "hourly", at: ":15" });
      expect(set).toMatchObject({ chain_id: CHAIN_ID, token: "USDT", hot_wallet: hotWallet, enabled: false, min_balance: "1000000", schedule: "hourly", at: ":15" });
      expect(await client.sweepPolicies.list()).toEqual([set]);
      await expect(client.sweepPolicies.set({ chain_id: CHAIN_ID, token: "DOGE", hot_wallet: hotWallet })).rejects.toMatchObject({ status: 422, code: "unknown_token" });
    });

    it("throws the spec's code for a bad request", async () => {
      const owner = Wallet.createRandom();
      const forOtherChain = await signAuthorization(owner, { chainId: 11155111, address: delegate, nonce: 0 });
      const refused = client.sweeps.create({ chain_id: CHAIN_ID, hot_wallet: hotWallet, account: owner.address, token: "USDT", authorization: forOtherChain });
      await expect(refused).rejects.toThrow(SweepApiError);
      await expect(refused).rejects.toMatchObject({ status: 422, code: "invalid_authorization", message: expect.stringMatching(/^invalid authorization: chain /), requestId: expect.any(String) });
    });

    it("hears every event signed, in the OpenAPI document's Event shape, and lists a test event in the delivery log at once", async () => {
      const testEventId = await client.webhook.test();
      const deliveries: Array<{ id: string; status: string }> = [];
      for await (const delivery of client.webhook.deliveries()) deliveries.push(delivery);
      expect(deliveries).toContainEqual(expect.objectContaining({ id: testEventId }));

      await eventually("the test event and the sweeps' outcomes", async () => (heard.some((e) => e.id === testEventId) && heard.filter((e) => e.type.startsWith("sweep.")).length >= 6 ? true : undefined), 60_000, 250);
      for (const event of heard) expect(() => EventSchema.parse(event)).not.toThrow();
      expect(heard.map((e) => e.type)).toEqual(expect.arrayContaining(["hot_wallet.active", "sweep.swept", "sweep.rejected", "webhook.test"]));

      // A delivery that is not signed with the secret is refused, and not handled.
      const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
      const handled = heard.length;
      const forged = await fetch(receiver.url, { method: "POST", headers: { "content-type": "application/json", "service-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"ab".repeat(32)}` }, body: JSON.stringify({ ...heard[0], id: crypto.randomUUID() }) });
      expect(forged.status).toBe(400);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("refused a delivery: bad_signature"));
      expect(heard).toHaveLength(handled);
      warn.mockRestore();
    }, 90_000);
  });
});
