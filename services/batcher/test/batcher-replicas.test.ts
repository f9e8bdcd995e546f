/**
 * Two batchers of chain 97 share its work in a running suite, beside a batcher of chain 11155111:
 * a burst of sweeps over several hot wallets, small batches so that many claims race. Every sweep
 * lands in exactly one batch and is swept once, both replicas claimed batches, and the other
 * chain's batcher touched nothing of chain 97.
 */
import { contractAt } from "@sweep/contracts";
import { activeHotWallet, createTestPartner, eventually, fundedDeposit, partnerApi, startStack, type ServiceProcess, type Stack, type TestPartner } from "@sweep/testkit";
import { Wallet, parseEther } from "ethers";

const CHAIN_ID = 97;
const HOT_WALLETS = 4;
const SWEEPS_PER_HOT_WALLET = 6;

const claimedBatches = (service: ServiceProcess) => new Set(service.logLines().flatMap((l) => (l.message === "batch claimed" ? [l.batchId as string] : [])));

describe("two batchers of one chain", () => {
  let stack: Stack;
  let partner: TestPartner;
  const api = partnerApi(() => stack.api, () => partner.auth);

  beforeAll(async () => {
    // At most 2 sweeps per claim: each hot wallet's burst takes several batches, so the replicas race for many claims.
    stack = await startStack({ services: ["ledger", "chain-sender", "batcher", "api-gateway"], env: { CHAINS: String(CHAIN_ID), BATCH_MAX_SWEEPS: "2" } });
    partner = await createTestPartner(stack.db, "replicas");
    await stack.chain(CHAIN_ID).setBalance(partner.gasWallet, parseEther("10"));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it("put every sweep of a burst in exactly one batch, and both claimed some", async () => {
    const chain = stack.chain(CHAIN_ID);
    const [second, otherChain] = await Promise.all([stack.startReplica("batcher"), stack.startReplica("batcher", { CHAINS: "11155111" })]);
    const first = stack.services.get("batcher")!;

    const hotWallets = await Promise.all(Array.from({ length: HOT_WALLETS }, () => activeHotWallet(api, CHAIN_ID, Wallet.createRandom().address)));

    const deposits = await Promise.all(
      hotWallets.flatMap((hotWallet, h) =>
        Array.from({ length: SWEEPS_PER_HOT_WALLET }, async (_x, i) => {
          const amount = BigInt(1_000 + h * 100 + i);
          return { hotWallet, amount, ...(await fundedDeposit(chain, hotWallet.delegate, amount)) };
        }),
      ),
    );
    const posted = await Promise.all(
      deposits.map(({ hotWallet, owner, authorization }) =>
        api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet.address, account: owner.address, token: "USDT", authorization }),
      ),
    );
    expect(posted.map((p) => p.status)).toEqual(deposits.map(() => 202));
    const ids: string[] = posted.map((p) => p.body.id);

    const ended = await eventually(
      "every sweep to end",
      async () => {
        const all = await Promise.all(ids.map(async (id) => (await api("GET", `/v1/sweeps/${id}`)).body));
        return all.every((s) => s.status !== "queued" && s.status !== "processing") ? all : undefined;
      },
      60_000,
      500,
    );
    expect(ended.map((s) => s.status)).toEqual(ids.map(() => "swept"));

    // Exactly one batch item per sweep: no sweep was batched twice.
    const items = await stack.db.batchItem.findMany({ where: { sweepId: { in: ids } }, select: { sweepId: true, batchId: true } });
    expect(items).toHaveLength(ids.length);
    expect(new Set(items.map((i) => i.sweepId)).size).toBe(ids.length);

    // Each batch claimed by one replica, both claimed, and together they claimed them all.
    const [byFirst, bySecond] = [claimedBatches(first), claimedBatches(second)];
    expect(byFirst.size).toBeGreaterThan(0);
    expect(bySecond.size).toBeGreaterThan(0);
    expect([...byFirst].filter((id) => bySecond.has(id))).toEqual([]);
    expect(new Set([...byFirst, ...bySecond])).toEqual(new Set(items.map((i) => i.batchId)));

    // CHAINS=11155111: the other chain's batcher never logged (so never consumed, polled or claimed) anything of chain 97.
    expect(claimedBatches(otherChain).size).toBe(0);
    expect(otherChain.logLines().filter((l) => l.chainId === CHAIN_ID)).toEqual([]);
    expect(otherChain.logLines().find((l) => l.message === "serving chains")).toMatchObject({ chains: [{ chainId: 11155111 }] });

    const usdt = contractAt("DevToken", chain.usdt.address, chain.provider);
    for (const hotWallet of hotWallets) {
      const expected = deposits.filter((d) => d.hotWallet === hotWallet).reduce((sum, d) => sum + d.amount, 0n);
      expect(await usdt.getFunction("balanceOf")(hotWallet.address)).toBe(expected);
    }
  }, 120_000);
});
