import { NODE_KINDS, authorizationBody, createTestPartner, eventually, partnerApi, sharedStack, sharedStackChainId, type SharedStack, type TestPartner } from "@sweep/testkit";
import { contractAt } from "@sweep/contracts";
import { Wallet, parseEther } from "ethers";

// A custodian hands out 200 deposit addresses, registers them with their authorizations, and lets
// the service sweep them by itself: deposits of the devnet USDT to 100 of them and of the native coin
// to the other 100 are detected once each (GET /v1/deposits, one deposit.detected each), and once
// its threshold policies are on, the service sweeps every address at or above the threshold in one
// or two batches, nothing asked, leaving the ten below it. Everything real, on anvil and on hardhat's
// node, on the run's shared stack of each (1 s blocks, 1 confirmation). A reorg before the
// confirmations (anvil only: hardhat's node cannot reorg) is services/batcher/test/sweep-policies.test.ts's,
// the gas-price rule with a base fee that rises and falls is test/fee-ceilings.e2e.test.ts's.

const ADDRESSES = 200;
const USDT_MIN = 1_000_000n;
const NATIVE_MIN = parseEther("0.001");

describe.each(NODE_KINDS)("on %s, sweep policies sweep 200 deposit addresses by themselves", (node) => {
  const CHAIN_ID = sharedStackChainId(node);
  let stack: SharedStack;
  let partner: TestPartner;
  const hotWallet = Wallet.createRandom().address;
  let delegate: string;
  const api = partnerApi(() => stack.api, () => partner.auth);

  beforeAll(async () => {
    stack = await sharedStack(node);
    partner = await createTestPartner(stack.db, "policies");
    await stack.chain(CHAIN_ID).setBalance(partner.gasWallet, parseEther("100"));
    expect((await api("POST", "/v1/hot-wallets", { chain_id: CHAIN_ID, address: hotWallet })).status).toBe(202);
    delegate = await eventually("the hot wallet active", async () => {
      const found = (await api("GET", "/v1/hot-wallets")).body.hot_wallets.find((h: { address: string; status: string }) => h.address === hotWallet);
      return found?.status === "active" ? (found.delegate as string) : undefined;
    });
  }, 180_000);

  afterAll(() => stack?.disconnect(), 60_000);

  it("detects each deposit once, then sweeps every address at its policy's threshold in one or two batches, and leaves those below", async () => {
    const chain = stack.chain(CHAIN_ID);
    const owners = Array.from({ length: ADDRESSES }, () => Wallet.createRandom());
    const registered = await api("POST", "/v1/deposit-addresses", {
      chain_id: CHAIN_ID,
      hot_wallet: hotWallet,
      addresses: owners.map((owner) => ({ address: owner.address, authorization: authorizationBody(owner.authorizeSync({ address: delegate, nonce: 0n, chainId: BigInt(CHAIN_ID) })) })),
    });
    expect(registered.status).toBe(200);
    // The policies, set while off: the deposits arrive and are confirmed first.
    for (const [token, min] of [["USDT", USDT_MIN], ["native", NATIVE_MIN]] as const) {
      expect((await api("PUT", "/v1/sweep-policies", { chain_id: CHAIN_ID, token, hot_wallet: hotWallet, enabled: false, min_balance: String(min) })).status).toBe(200);
    }

    // 100 token deposits (the last ten below the threshold) and 100 of native coin, each a transaction of its own.
    const tokenOwners = owners.slice(0, 100);
    const nativeOwners = owners.slice(100);
    const usdtOf = (i: number) => (i < 90 ? 2n * USDT_MIN + BigInt(i) : USDT_MIN / 2n);
    const payer = Wallet.createRandom().connect(chain.provider);
    await chain.setBalance(payer.address, parseEther("10"));
    const nonce = await chain.provider.getTransactionCount(payer.address);
    const sent = await Promise.all(nativeOwners.map((owner, i) => payer.sendTransaction({ to: owner.address, value: parseEther("0.01"), nonce: nonce + i, gasLimit: 21_000 })));
    await Promise.all([...tokenOwners.map((owner, i) => chain.mintUsdt(owner.address, usdtOf(i))), ...sent.map((tx) => tx.wait())]);

    const deposits = await eventually(
      "the 200 deposits confirmed",
      async () => {
        const listed: Array<{ id: string; address: string; token: string; amount: string }> = [];
        let cursor: string | null = null;
        do {
          const page: { items: typeof listed; next_cursor: string | null } = (await api("GET", `/v1/deposits?chain_id=${CHAIN_ID}&status=confirmed&limit=200${cursor ? `&cursor=${cursor}` : ""}`)).body;
          listed.push(...page.items);
          cursor = page.next_cursor;
        } while (cursor);
        return listed.length >= ADDRESSES ? listed : undefined;
      },
      60_000,
      500,
    );
    expect(deposits).toHaveLength(ADDRESSES);
    expect(new Set(deposits.map((d) => d.address)).size).toBe(ADDRESSES);
    const byAddress = new Map(deposits.map((d) => [d.address, d]));
    tokenOwners.forEach((owner, i) => expect(byAddress.get(owner.address)).toMatchObject({ token: "USDT", amount: String(usdtOf(i)) }));
    nativeOwners.forEach((owner) => expect(byAddress.get(owner.address)).toMatchObject({ token: "tBNB", amount: parseEther("0.01").toString() }));
    const announced = await eventually("one deposit.detected each", async () => {
      const count = await stack.db.event.count({ where: { partnerId: partner.partnerId, type: "deposit.detected" } });
      return count >= ADDRESSES ? count : undefined;
    });
    expect(announced).toBe(ADDRESSES);
    expect(await stack.db.sweep.count({ where: { partnerId: partner.partnerId } })).toBe(0);

    // On: the service sweeps by itself.
    for (const token of ["USDT", "native"]) expect((await api("PUT", "/v1/sweep-policies", { chain_id: CHAIN_ID, token, hot_wallet: hotWallet, min_balance: String(token === "USDT" ? USDT_MIN : NATIVE_MIN) })).body.enabled).toBe(true);
    const swept = await eventually(
      "190 sweeps swept",
      async () => {
        const sweeps = await stack.db.sweep.findMany({ where: { partnerId: partner.partnerId } });
        return sweeps.length === 190 && sweeps.every((s) => s.status === "swept") ? sweeps : undefined;
      },
      120_000,
      500,
    );
    expect(new Set(swept.map((s) => s.txHash)).size).toBeLessThanOrEqual(2);
    for (const sweep of swept) {
      const deposit = byAddress.get(sweep.account)!;
      expect(sweep).toMatchObject({ createdBy: "policy", token: deposit.token, amount: null });
      expect(sweep.sweptAmount!.toFixed(0)).toBe(deposit.amount);
    }
    const [one] = (await api("GET", `/v1/sweeps?account=${swept[0]!.account}`)).body.items;
    expect(one).toMatchObject({ created_by: "policy", status: "swept", external_id: expect.stringMatching(new RegExp(`^deposit:${CHAIN_ID}:0x[0-9a-f]{64}:-?\\d+$`)) });

    // The ten below the threshold hold their deposits; the hot wallet holds everything else.
    const below = tokenOwners.slice(90).map((o) => o.address);
    expect(swept.filter((s) => below.includes(s.account))).toEqual([]);
    const usdt = contractAt("DevToken", chain.usdt.address, chain.provider);
    expect(await usdt.getFunction("balanceOf")(hotWallet)).toBe(tokenOwners.slice(0, 90).reduce((sum, _, i) => sum + usdtOf(i), 0n));
    expect(await chain.provider.getBalance(hotWallet)).toBe(100n * parseEther("0.01"));
    // Nothing swept twice: the policies' rounds go on, and make nothing more.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await stack.db.sweep.count({ where: { partnerId: partner.partnerId } })).toBe(190);
  }, 300_000);
});
