import { authorizationBody, createTestPartner, eventually, partnerApi, startStack, type Stack, type TestPartner } from "@sweep/testkit";
import { contractAt } from "@sweep/contracts";
import { Transaction, Wallet, parseEther } from "ethers";

// The chain-sender dies between broadcasting a batch and seeing its receipt. A new one must resume
// from the stored transaction: every sweep swept exactly once, no second transaction for a nonce.

const CHAIN_ID = 97;

describe("the chain-sender is killed between broadcast and receipt", () => {
  let stack: Stack;
  let partner: TestPartner;
  const hotWallet = Wallet.createRandom().address;

  const api = partnerApi(() => stack.api, () => partner.auth);

  beforeAll(async () => {
    // Slow blocks leave time to kill the sender while its transaction waits to be mined.
    stack = await startStack({ blockTime: 4 });
    partner = await createTestPartner(stack.db, "crash");
    await stack.chain(CHAIN_ID).setBalance(partner.gasWallet, parseEther("10"));
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it("resumes from the stored transaction and sweeps each deposit once", async () => {
    const chain = stack.chain(CHAIN_ID);
    const registered = await api("POST", "/v1/hot-wallets", { chain_id: CHAIN_ID, address: hotWallet });
    const delegate: string = registered.body.delegate;
    await eventually("the hot wallet to be active", async () => {
      const list = await api("GET", "/v1/hot-wallets");
      return list.body.hot_wallets.some((h: { status: string }) => h.status === "active") || undefined;
    });

    const owners = Array.from({ length: 10 }, () => Wallet.createRandom());
    for (const [i, owner] of owners.entries()) await chain.mintUsdt(owner.address, BigInt(100 + i));
    const posted = await Promise.all(
      owners.map((owner) => {
        const auth = owner.authorizeSync({ address: delegate, nonce: 0n, chainId: BigInt(CHAIN_ID) });
        return api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: owner.address, token: "USDT", authorization: authorizationBody(auth) });
      }),
    );
    const ids: string[] = posted.map((p) => p.body.id);

    await eventually(
      "a sweep batch to be broadcast",
      async () => (await stack.db.chainTransaction.findFirst({ where: { status: "broadcast", batch: { purpose: "sweep" } } })) ?? undefined,
      60_000,
      50,
    );
    await stack.services.get("chain-sender")!.kill();
    await new Promise((r) => setTimeout(r, 5_000));
    await stack.restart("chain-sender");

    const ended = await eventually(
      "every sweep to end",
      async () => {
        const all = await Promise.all(ids.map(async (id) => (await api("GET", `/v1/sweeps/${id}`)).body));
        return all.every((s) => s.status !== "queued" && s.status !== "processing") ? all : undefined;
      },
      120_000,
      500,
    );
    expect(ended.map((s) => s.status)).toEqual(Array(10).fill("swept"));

    const usdt = contractAt("DevToken", chain.usdt.address, chain.provider);
    for (const owner of owners) expect(await usdt.getFunction("balanceOf")(owner.address)).toBe(0n);
    const sweptTotal = ended.reduce((sum, s) => sum + BigInt(s.swept_amount), 0n);
    expect(sweptTotal).toBe(owners.reduce((sum, _o, i) => sum + BigInt(100 + i), 0n));
    expect(await usdt.getFunction("balanceOf")(hotWallet)).toBe(sweptTotal);
    expect(await stack.db.event.count({ where: { partnerId: partner.partnerId, type: "sweep.swept" } })).toBe(10);

    // Per nonce: one transaction content (replacements differ only in fees) and at most one mined.
    const stored = await stack.db.chainTransaction.findMany({ where: { gasWalletId: (await stack.db.gasWallet.findUniqueOrThrow({ where: { partnerId: partner.partnerId } })).id } });
    const byNonce = new Map<bigint, typeof stored>();
    for (const tx of stored) byNonce.set(tx.nonce, [...(byNonce.get(tx.nonce) ?? []), tx]);
    for (const [nonce, txs] of byNonce) {
      const contents = new Set(
        txs.map((t) => {
          const decoded = Transaction.from(t.rawTx);
          return JSON.stringify([decoded.to, decoded.data, decoded.value.toString(), decoded.authorizationList?.map((a) => [a.address, a.nonce.toString()]) ?? []]);
        }),
      );
      expect({ nonce, contents: contents.size }).toEqual({ nonce, contents: 1 });
      expect(txs.filter((t) => t.status === "confirmed").length).toBeLessThanOrEqual(1);
    }
    const mined = await chain.provider.getTransactionCount(partner.gasWallet, "latest");
    expect(stored.filter((t) => t.status === "confirmed").length).toBe(mined);
  }, 300_000);
});
