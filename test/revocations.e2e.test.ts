import { NODE_KINDS, authorizationBody, createTestPartner, eventually, partnerApi, untilEnded, startStack, type Stack, type TestPartner } from "@sweep/testkit";
import { Wallet, ZeroAddress, parseEther, type BaseWallet } from "ethers";

// The story of a partner taking delegations back: deposit addresses swept once (so delegated to
// the hot wallet's delegate) are revoked through the API, with everything real (services as
// processes, Postgres, RabbitMQ, Redis, the compiled contracts), once on anvil and once on
// hardhat's node, each with 1 s blocks.

const CHAIN_ID = 97;

interface Work {
  id: string;
  status: string;
  reason?: string;
  kind?: string;
  tx_hash?: string;
  gas?: number;
  gas_cost?: string;
  attempts: number;
}

describe.each(NODE_KINDS)("on %s, a partner revokes deposit addresses' delegations", (node) => {
  let stack: Stack;
  let partner: TestPartner;
  const hotWallet = Wallet.createRandom().address;
  let delegate: string;

  const api = partnerApi(() => stack.api, () => partner.auth);
  const chain = () => stack.chain(CHAIN_ID);
  const sweepEnds = (id: string) => untilEnded<Work>(api, "/v1/sweeps", id);
  const revocationEnds = (id: string) => untilEnded<Work>(api, "/v1/revocations", id);

  const authorize = (owner: BaseWallet, address: string, nonce: number) => authorizationBody(owner.authorizeSync({ address, nonce: BigInt(nonce), chainId: BigInt(CHAIN_ID) }));
  const postSweep = (owner: BaseWallet, authorization?: ReturnType<typeof authorizationBody>) =>
    api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: owner.address, token: "USDT", ...(authorization ? { authorization } : {}) });
  const postRevocation = (owner: BaseWallet, nonce: number, extra: Record<string, unknown> = {}) =>
    api("POST", "/v1/revocations", { chain_id: CHAIN_ID, account: owner.address, authorization: authorize(owner, ZeroAddress, nonce), ...extra });

  /** A deposit address swept once with its authorization (nonce 0): delegated to the hot wallet's delegate, its nonce now 1. */
  async function delegatedAddress() {
    const owner = Wallet.createRandom();
    await chain().mintUsdt(owner.address, 1_000n);
    const swept = await sweepEnds((await postSweep(owner, authorize(owner, delegate, 0))).body.id);
    expect(swept).toMatchObject({ status: "swept", kind: "first_new" });
    return owner;
  }

  beforeAll(async () => {
    stack = await startStack({ blockTime: 1, node });
    partner = await createTestPartner(stack.db, "revocations");
    await chain().setBalance(partner.gasWallet, parseEther("100"));
    delegate = (await api("POST", "/v1/hot-wallets", { chain_id: CHAIN_ID, address: hotWallet })).body.delegate;
    await eventually("the hot wallet to be active", async () => {
      const list = await api("GET", "/v1/hot-wallets");
      return list.body.hot_wallets.find((h: { status: string }) => h.status === "active");
    });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  /** The address as the partner's inventory shows it. */
  const inventoried = async (address: string) => (await api("GET", `/v1/deposit-addresses?chain_id=${CHAIN_ID}&address=${address}`)).body.items;

  it("revokes a delegated address: its code is empty again, a sweep without a new authorization is rejected not_upgraded, and one with a new authorization is a first sweep", async () => {
    const owner = await delegatedAddress();
    expect(await chain().provider.getCode(owner.address)).toMatch(/^0xef0100/);
    expect(await inventoried(owner.address)).toEqual([expect.objectContaining({ delegation: "delegated", delegate })]);

    const requested = await postRevocation(owner, 1);
    expect(requested).toMatchObject({ status: 202, body: { status: "queued", chain_id: CHAIN_ID, account: owner.address, attempts: 0 } });
    const revoked = await revocationEnds(requested.body.id);
    expect(revoked).toMatchObject({ status: "revoked", attempts: 1, tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(revoked.gas).toBeGreaterThan(0);
    const receipt = (await chain().provider.getTransactionReceipt(revoked.tx_hash!))!;
    expect(BigInt(revoked.gas_cost!)).toBe(BigInt(revoked.gas!) * receipt.gasPrice);
    // Sent by the gas wallet to itself, carrying the zero-address authorization.
    const transaction = (await chain().provider.getTransaction(revoked.tx_hash!))!;
    expect(transaction).toMatchObject({ type: 4, from: partner.gasWallet, to: partner.gasWallet });
    expect(await chain().provider.getCode(owner.address)).toBe("0x");
    expect(await stack.db.event.count({ where: { type: "revocation.revoked", subjectId: revoked.id } })).toBe(1);
    expect(await inventoried(owner.address)).toEqual([expect.objectContaining({ delegation: "revoked" })]);
    expect((await inventoried(owner.address))[0]).not.toHaveProperty("delegate");

    await chain().mintUsdt(owner.address, 500n);
    expect(await sweepEnds((await postSweep(owner)).body.id)).toMatchObject({ status: "rejected", reason: "not_upgraded" });
    // Two authorizations applied so far (the first sweep's and the revocation's): the nonce is 2.
    expect(await sweepEnds((await postSweep(owner, authorize(owner, delegate, 2))).body.id)).toMatchObject({ status: "swept", kind: "first" });
  });

  it("rejects a revocation of an address that is not delegated, and one whose authorization carries another nonce", async () => {
    const plain = Wallet.createRandom();
    expect(await revocationEnds((await postRevocation(plain, 0)).body.id)).toMatchObject({ status: "rejected", reason: "not_delegated" });

    const delegated = await delegatedAddress();
    const stale = await revocationEnds((await postRevocation(delegated, 0)).body.id);
    expect(stale).toMatchObject({ status: "rejected", reason: "stale_authorization" });
    expect(await stack.db.event.count({ where: { type: "revocation.rejected", subjectId: stale.id } })).toBe(1);
    expect(await chain().provider.getCode(delegated.address)).toMatch(/^0xef0100/);
  });

  it("fails a revocation not_applied when the address's nonce moves between the check and the send", async () => {
    const owner = (await delegatedAddress()).connect(chain().provider);
    await chain().setBalance(owner.address, parseEther("1"));
    // The chain-sender is down: the batcher checks and claims the revocation, nothing sends it yet.
    await stack.services.get("chain-sender")!.stop();
    const requested = await postRevocation(owner, 1);
    await eventually("the revocation claimed", async () => ((await api("GET", `/v1/revocations/${requested.body.id}`)).body.status === "processing" ? true : undefined));
    // The owner sends a transaction of its own: nonce 1 is used, so the chain will skip the authorization.
    await (await owner.sendTransaction({ to: owner.address, value: 0n })).wait();
    await stack.restart("chain-sender");

    const failed = await revocationEnds(requested.body.id);
    expect(failed).toMatchObject({ status: "failed", reason: "not_applied", tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(failed.gas).toBeGreaterThan(0);
    expect(await chain().provider.getCode(owner.address)).toMatch(/^0xef0100/);
    expect(await stack.db.event.count({ where: { type: "revocation.failed", subjectId: failed.id } })).toBe(1);
  });

  it("sends a revocation after the sweep of the same address requested before it, at the nonce that sweep's authorization leaves", async () => {
    const owner = Wallet.createRandom();
    await chain().mintUsdt(owner.address, 1_000n);
    const sweep = await postSweep(owner, authorize(owner, delegate, 0));
    const revocation = await postRevocation(owner, 1);
    expect(await sweepEnds(sweep.body.id)).toMatchObject({ status: "swept", kind: "first_new" });
    const revoked = await revocationEnds(revocation.body.id);
    expect(revoked).toMatchObject({ status: "revoked" });
    expect(revoked.tx_hash).not.toBe((await api("GET", `/v1/sweeps/${sweep.body.id}`)).body.tx_hash);
    expect(await chain().provider.getCode(owner.address)).toBe("0x");
  });

  it("never lets a sweep requested just after a revocation of its address run on the removed delegation", async () => {
    const owner = await delegatedAddress();
    await chain().mintUsdt(owner.address, 700n);
    const revocation = await postRevocation(owner, 1);
    const sweep = await postSweep(owner);
    expect(await revocationEnds(revocation.body.id)).toMatchObject({ status: "revoked" });
    expect(await sweepEnds(sweep.body.id)).toMatchObject({ status: "rejected", reason: "not_upgraded" });
  });

  it("carries revocations that are ready at the same time in one transaction", async () => {
    const owners = await Promise.all([delegatedAddress(), delegatedAddress(), delegatedAddress()]);
    const requested = await Promise.all(owners.map((owner) => postRevocation(owner, 1)));
    const ended = await Promise.all(requested.map((r) => revocationEnds(r.body.id)));
    expect(ended.map((r) => r.status)).toEqual(["revoked", "revoked", "revoked"]);
    expect(new Set(ended.map((r) => r.tx_hash)).size).toBe(1);
    const receipt = (await chain().provider.getTransactionReceipt(ended[0]!.tx_hash!))!;
    expect(ended.reduce((sum, r) => sum + BigInt(r.gas!), 0n)).toBe(receipt.gasUsed);
    for (const owner of owners) expect(await chain().provider.getCode(owner.address)).toBe("0x");
  });

  // The services' own rules, the same whatever the node: told once, on anvil.
  if (node === "anvil") {
    it("starts what waited for a settlement at once, not on the batcher's poll: a sweep behind a revocation, and a revocation behind that sweep", async () => {
      const owner = await delegatedAddress();
      // A batcher that polls once an hour: only the ledger's wakes after each settlement can start the waiting work within the test's time.
      await stack.services.get("batcher")!.stop();
      const batcher = await stack.startReplica("batcher", { POLL_INTERVAL_MS: "3600000" });
      try {
        await chain().mintUsdt(owner.address, 500n);
        const revocation = await postRevocation(owner, 1);
        // waits for the revocation, then delegates the address again with the nonce the revocation left
        const sweep = await postSweep(owner, authorize(owner, delegate, 2));
        // waits for that sweep
        const again = await postRevocation(owner, 3);
        expect(await revocationEnds(revocation.body.id)).toMatchObject({ status: "revoked" });
        expect(await sweepEnds(sweep.body.id)).toMatchObject({ status: "swept", kind: "first" });
        expect(await revocationEnds(again.body.id)).toMatchObject({ status: "revoked" });
        expect(await chain().provider.getCode(owner.address)).toBe("0x");
      } finally {
        await batcher.stop();
        await stack.restart("batcher");
      }
    });

    it("answers a repeated external_id with the existing revocation, also for 20 identical requests at once", async () => {
      const owner = await delegatedAddress();
      const responses = await Promise.all(Array.from({ length: 20 }, () => postRevocation(owner, 1, { external_id: `revoke-${owner.address}` })));
      expect(responses.filter((r) => r.status === 202)).toHaveLength(1);
      expect(responses.filter((r) => r.status === 200)).toHaveLength(19);
      expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
      expect(await stack.db.revocation.count({ where: { account: owner.address } })).toBe(1);
      expect(await revocationEnds(responses[0]!.body.id)).toMatchObject({ status: "revoked" });
    });
  }
});
