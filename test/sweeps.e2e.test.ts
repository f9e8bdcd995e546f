import {
  SHARED_STACK_NODES,
  authorizationBody,
  createTestPartner,
  eventually,
  partnerApi,
  sharedStack,
  sharedStackChainId,
  startSharedStacks,
  type SharedStack,
  type TestPartner,
} from "@sweep/testkit";
import { toBigInt } from "@sweep/db";
import { contractAt } from "@sweep/contracts";
import { Wallet, parseEther } from "ethers";

// The story of a partner: register a hot wallet, fund deposit addresses on the chain, have their
// owners sign EIP-7702 authorizations, and sweep them through the API: everything real (services
// as processes, Postgres, RabbitMQ, Redis, the compiled contracts), on anvil and on hardhat's node
// (no eth_simulateV1, EIP-7702 refunds as the EIP says), and on an OP-stack chain on anvil's
// optimism mode (every transaction also pays an L1 data fee its receipt does not name), each with
// 1 s blocks, on the run's shared stack of that node kind: everything it reads is its own partner's.

interface SweepBody {
  id: string;
  status: string;
  kind?: string;
  reason?: string;
  tx_hash?: string;
  swept_amount?: string;
  amount?: string;
  gas?: number;
  gas_cost?: string;
  fee?: string;
  classic_gas?: number;
  rate_bps?: number;
  keep_one_unit?: boolean;
  attempts: number;
}

// The node kinds' stacks start at once: each is up when its story begins.
beforeAll(() => startSharedStacks(SHARED_STACK_NODES));

// Sweeps signed with a gas wallet key in a PKCS#11 token are test/hsm-custody.e2e.test.ts's story.
describe.each(SHARED_STACK_NODES)("on %s, a partner sweeps deposit addresses into its hot wallet", (node) => {
  const CHAIN_ID = sharedStackChainId(node);
  let stack: SharedStack;
  let partner: TestPartner;
  const hotWallet = Wallet.createRandom().address;
  let delegate: string;

  const api = partnerApi(() => stack.api, () => partner.auth);
  const sweep = async (id: string) => (await api("GET", `/v1/sweeps/${id}`)).body as SweepBody;
  /** The sweeps once all are final; a timeout names their statuses and what the stack's services warned of, for the one reading CI's log. */
  const untilFinal = async (ids: string[], timeoutMs = 90_000) => {
    let last: Array<{ status: string }> = [];
    try {
      return await eventually(
        `${ids.length} sweeps to end`,
        async () => {
          const all = await Promise.all(ids.map(sweep));
          last = all;
          return all.every((s) => ["swept", "failed", "rejected"].includes(s.status)) ? all : undefined;
        },
        timeoutMs,
        500,
      );
    } catch (err) {
      const counts = new Map<string, number>();
      for (const { status } of last) counts.set(status, (counts.get(status) ?? 0) + 1);
      const statuses = [...counts].map(([status, count]) => `${status} ${count}`);
      const services = ["batcher", "chain-sender", "ledger"] as const;
      const complaints = (await Promise.all(services.map(async (name) => (await stack.logLines(name)).filter((l) => l.level === "warn" || l.level === "error").map((l) => `${name}: ${JSON.stringify(l)}`)))).flat();
      throw new Error(`${String(err)} on ${node} (statuses: ${statuses.join(", ")})\n${complaints.slice(-40).join("\n")}`);
    }
  };

  /** A deposit address holding `usdt` units and optionally native coin, with its signed authorization. */
  async function depositAddress(usdt: bigint, native = 0n) {
    const owner = Wallet.createRandom();
    const chain = stack.chain(CHAIN_ID);
    if (usdt > 0n) await chain.mintUsdt(owner.address, usdt);
    if (native > 0n) await chain.setBalance(owner.address, native);
    const authorization = owner.authorizeSync({ address: delegate, nonce: 0n, chainId: BigInt(CHAIN_ID) });
    return { owner, authorization: authorizationBody(authorization) };
  }

  beforeAll(async () => {
    // Fifty requests "at once" reach the API over more than the default 600 ms on a loaded machine: the shared stack's
    // longer gathering window keeps them the one batch the story checks, as a partner's burst under load grows one batch.
    stack = await sharedStack(node);
    partner = await createTestPartner(stack.db, "story");
    await stack.chain(CHAIN_ID).setBalance(partner.gasWallet, parseEther("100"));
  }, 180_000);

  afterAll(async () => {
    await stack?.disconnect();
  }, 60_000);

  it("registers a hot wallet: the delegate is known at once and becomes active when deployed", async () => {
    const registered = await api("POST", "/v1/hot-wallets", { chain_id: CHAIN_ID, address: hotWallet.toLowerCase() });
    expect(registered.status).toBe(202);
    expect(registered.body).toMatchObject({ chain_id: CHAIN_ID, address: hotWallet, status: "pending" });
    delegate = registered.body.delegate;

    const early = await api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: Wallet.createRandom().address, token: "USDT" });
    if (early.status !== 202) expect(early).toMatchObject({ status: 409, body: { error: { code: "hot_wallet_not_active" } } });

    const active = await eventually("the hot wallet to be active", async () => {
      const list = await api("GET", "/v1/hot-wallets");
      const found = list.body.hot_wallets.find((h: { address: string }) => h.address === hotWallet);
      return found?.status === "active" ? found : undefined;
    });
    expect(active).toMatchObject({ delegate, tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(await stack.chain(CHAIN_ID).provider.getCode(delegate)).not.toBe("0x");
    expect((await api("POST", "/v1/hot-wallets", { chain_id: CHAIN_ID, address: hotWallet })).status).toBe(200);
  });

  it("sweeps 50 deposit addresses requested at once in one transaction: first_new and first", async () => {
    const deposits = await Promise.all(
      Array.from({ length: 50 }, (_, i) => depositAddress(BigInt(1_000_000 + i), i % 2 === 0 ? parseEther("0.001") : 0n)),
    );
    const responses = await Promise.all(
      deposits.map((d, i) =>
        api("POST", "/v1/sweeps", {
          external_id: `story-${i}`,
          chain_id: CHAIN_ID,
          hot_wallet: hotWallet,
          account: d.owner.address,
          token: "usdt",
          authorization: d.authorization,
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(202));
    const ids = responses.map((r) => r.body.id as string);

    const ended = await untilFinal(ids);
    expect(ended.map((s) => s.status)).toEqual(Array(50).fill("swept"));
    expect(new Set(ended.map((s) => s.tx_hash)).size).toBe(1);
    // anvil simulates the batch (eth_simulateV1); hardhat has no such method, so every item went unsimulated (a line about
    // the node: every story on the shared stack runs on the same node kind).
    const unsimulated = (await stack.logLines("chain-sender")).some((l) => l.message.startsWith("the node has no eth_simulateV1"));
    expect(unsimulated).toBe(node === "hardhat");
    ended.forEach((s, i) => {
      expect(s.kind).toBe(i % 2 === 0 ? "first" : "first_new");
      expect(s.swept_amount).toBe(String(1_000_000 + i));
      expect(s.fee).toMatch(/^[0-9]+$/);
    });

    const chain = stack.chain(CHAIN_ID);
    const receipt = (await chain.provider.getTransactionReceipt(ended[0]!.tx_hash!))!;
    // What the gas wallet paid for the batch, as the chain took it: gas used × price, and on the OP-stack chain its L1 data fee.
    const balanceAt = (block: number) => chain.provider.getBalance(partner.gasWallet, block);
    const charged = (await balanceAt(receipt.blockNumber - 1)) - (await balanceAt(receipt.blockNumber));
    const l1Fee = charged - receipt.gasUsed * receipt.gasPrice;
    expect(l1Fee > 0n).toBe(node === "anvil-optimism");
    expect(ended.reduce((sum, s) => sum + BigInt(s.gas!), 0n)).toBe(receipt.gasUsed);
    // Each item's gas_cost is its gas at the price and its share of the L1 fee; the shares add up to the fee, to the wei.
    const l1Shares = ended.map((s) => BigInt(s.gas_cost!) - BigInt(s.gas!) * receipt.gasPrice);
    expect(l1Shares.every((share) => (l1Fee > 0n ? share > 0n : share === 0n))).toBe(true);
    expect(l1Shares.reduce((sum, share) => sum + share, 0n)).toBe(l1Fee);
    const usdt = contractAt("DevToken", chain.usdt.address, chain.provider);
    expect(await usdt.getFunction("balanceOf")(hotWallet)).toBe(ended.reduce((sum, s) => sum + BigInt(s.swept_amount!), 0n));
    for (const d of deposits) expect(await chain.provider.getCode(d.owner.address)).toBe(`0xef0100${delegate.slice(2).toLowerCase()}`);

    const gasEntries = await stack.db.ledgerEntry.findMany({ where: { partnerId: partner.partnerId, kind: "gas", txHash: ended[0]!.tx_hash! } });
    expect(gasEntries.map((e) => toBigInt(e.amount))).toEqual([-charged]);
    expect(await stack.db.event.count({ where: { partnerId: partner.partnerId, type: "sweep.swept" } })).toBe(50);
    // The partner's inventory holds the fifty, delegated to the hot wallet's delegate since the batch went through.
    const inventory = (await api("GET", `/v1/deposit-addresses?chain_id=${CHAIN_ID}&delegation=delegated&limit=200`)).body.items as Array<{ address: string; delegate: string }>;
    expect(new Set(inventory.map((a) => a.address))).toEqual(new Set(deposits.map((d) => d.owner.address)));
    expect(inventory.every((a) => a.delegate === delegate)).toBe(true);
  }, 150_000);

  it("sweeps an address again without an authorization (repeat), the native coin, a partial amount and keep-one-unit", async () => {
    const chain = stack.chain(CHAIN_ID);
    const [a, b, c] = await Promise.all([depositAddress(5_000n), depositAddress(7_000n), depositAddress(9_000n, parseEther("0.5"))]);
    const first = await Promise.all(
      [a, b, c].map((d) => api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: d.owner.address, token: chain.usdt.address, authorization: d.authorization })),
    );
    await untilFinal(first.map((r) => r.body.id));

    await chain.mintUsdt(a.owner.address, 1_234n);
    await chain.mintUsdt(b.owner.address, 1_000n);
    await chain.mintUsdt(c.owner.address, 10n);
    const second = await Promise.all([
      api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: a.owner.address, token: "USDT" }),
      api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: b.owner.address, token: "USDT", amount: "400" }),
      api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: c.owner.address, token: "USDT", keep_one_unit: true }),
      api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: c.owner.address, token: "native" }),
    ]);
    expect(second.map((r) => r.status)).toEqual([202, 202, 202, 202]);
    const [repeat, partial, keepOne, native] = await untilFinal(second.map((r) => r.body.id));
    expect(repeat).toMatchObject({ status: "swept", kind: "repeat", swept_amount: "1234" });
    expect(partial).toMatchObject({ status: "swept", kind: "repeat", amount: "400", swept_amount: "400" });
    expect(keepOne).toMatchObject({ status: "swept", keep_one_unit: true, swept_amount: "9" });
    expect(native).toMatchObject({ status: "swept", kind: "repeat", swept_amount: parseEther("0.5").toString() });

    const usdt = contractAt("DevToken", chain.usdt.address, chain.provider);
    expect(await usdt.getFunction("balanceOf")(b.owner.address)).toBe(600n);
    expect(await usdt.getFunction("balanceOf")(c.owner.address)).toBe(1n);
    expect(await chain.provider.getBalance(c.owner.address)).toBe(0n);
  }, 150_000);

  it("marks a deposit address whose key signed a drainer's delegation compromised, tells the partner, and rejects its later sweep foreign_delegation", async () => {
    const chain = stack.chain(CHAIN_ID);
    const deposit = await depositAddress(3_000n);
    const registered = await api("POST", "/v1/deposit-addresses", { chain_id: CHAIN_ID, hot_wallet: hotWallet, addresses: [{ address: deposit.owner.address, authorization: deposit.authorization }] });
    expect(registered.body.items).toEqual([expect.objectContaining({ delegation: "authorized", delegate })]);
    const [first] = await untilFinal([(await api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: deposit.owner.address, token: "USDT" })).body.id]);
    expect(first).toMatchObject({ status: "swept", kind: "first_new" });

    // A stranger carries the address's own authorization of a drainer: its key is out.
    const drainer = Wallet.createRandom().address;
    const stranger = Wallet.createRandom().connect(chain.provider);
    await chain.setBalance(stranger.address, parseEther("1"));
    const authorization = deposit.owner.authorizeSync({ address: drainer, nonce: BigInt(await chain.provider.getTransactionCount(deposit.owner.address)), chainId: BigInt(CHAIN_ID) });
    const sent = await stranger.sendTransaction({ type: 4, to: stranger.address, authorizationList: [authorization] });
    const mined = (await sent.wait())!;
    const entry = await eventually("the address marked compromised", async () => {
      const [found] = (await api("GET", `/v1/deposit-addresses?chain_id=${CHAIN_ID}&address=${deposit.owner.address}`)).body.items;
      return found?.delegation === "compromised" ? found : undefined;
    });
    expect(entry.compromised).toEqual({ tx_hash: sent.hash, block_number: mined.blockNumber });
    const events = await stack.db.event.findMany({ where: { partnerId: partner.partnerId, type: "deposit_address.delegation_changed" } });
    expect(events.map((e) => e.payload)).toEqual([
      { chain_id: CHAIN_ID, address: deposit.owner.address, tx_hash: sent.hash, block_number: mined.blockNumber, sender: stranger.address, old_delegate: delegate, new_delegate: drainer },
    ]);

    await chain.mintUsdt(deposit.owner.address, 1_000n);
    const [later] = await untilFinal([(await api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: deposit.owner.address, token: "USDT" })).body.id]);
    expect(later).toMatchObject({ status: "rejected", reason: "foreign_delegation" });
  }, 120_000);

  it("rejects what a check before sending finds wrong, with the spec's reasons", async () => {
    const chain = stack.chain(CHAIN_ID);
    const funded = await depositAddress(50n);
    const stale = Wallet.createRandom();
    await chain.mintUsdt(stale.address, 5n);
    const staleAuth = authorizationBody(stale.authorizeSync({ address: delegate, nonce: 3n, chainId: BigInt(CHAIN_ID) }));
    const empty = await depositAddress(0n);
    const never = Wallet.createRandom();
    await chain.mintUsdt(never.address, 5n);

    const requests = [
      { account: never.address, token: "USDT" },
      { account: stale.address, token: "USDT", authorization: staleAuth },
      { account: funded.owner.address, token: "USDT", amount: "51", authorization: funded.authorization },
      { account: empty.owner.address, token: "USDT", authorization: empty.authorization },
    ];
    const responses = await Promise.all(requests.map((r) => api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, ...r })));
    expect(responses.map((r) => r.status)).toEqual([202, 202, 202, 202]);
    const ended = await untilFinal(responses.map((r) => r.body.id));
    expect(ended.map((s) => [s.status, s.reason])).toEqual([
      ["rejected", "not_upgraded"],
      ["rejected", "stale_authorization"],
      ["rejected", "would_fail"],
      ["rejected", "nothing_to_sweep"],
    ]);
    expect(await stack.db.event.count({ where: { partnerId: partner.partnerId, type: "sweep.rejected", subjectId: { in: ended.map((s) => s.id) } } })).toBe(4);
  }, 120_000);
});
