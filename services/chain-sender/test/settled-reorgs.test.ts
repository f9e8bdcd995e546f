import { scrapeMetrics } from "@sweep/metrics";
import { ScrapedMetrics, parsePrometheusText } from "@sweep/testkit";
import { CHAIN_ID, logger, outboxOf, partnerWithGasWallet, registerHotWallet, startHarness, watchUntil, type FundedPartner, type Harness } from "./support";

// Reorgs deeper than the confirmation depth (1 on this chain: a settled transaction's block is
// already as deep as the chain-sender waits for), on anvil, whose `anvil_reorg` replaces the last
// blocks with new ones and drops the transactions they held.

describe("chain-sender: a settled transaction whose block leaves the canonical chain", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
  }, 60_000);

  // The errors a reorg is reported by, held here rather than printed.
  const errors = jest.spyOn(logger, "error").mockImplementation(() => logger);
  // winston's overloads leave jest the (info object) one; the chain-sender calls error(message, fields).
  const reported = (message: string, transactionId: string) =>
    (errors.mock.calls as unknown as Array<[string, Record<string, unknown>]>)
      .filter(([text, fields]) => text.startsWith(message) && fields.transactionId === transactionId)
      .map(([, fields]) => fields);

  const counted = async (outcome: string) =>
    new ScrapedMetrics(parsePrometheusText((await scrapeMetrics()).body)).sum("sweep_settled_reorgs_total", { chain_id: String(CHAIN_ID), outcome }) ?? 0;
  const stored = (id: string) => h.db.chainTransaction.findUniqueOrThrow({ where: { id } });

  /** A hot wallet's deployment sent and settled: one confirmed transaction, its block hash kept. */
  async function settledDeploy(partner: FundedPartner) {
    const hotWallet = await registerHotWallet(h, partner);
    await h.deploys.handle(hotWallet.id);
    const batch = await h.db.batch.findFirstOrThrow({ where: { hotWalletId: hotWallet.id } });
    const watcher = h.watcher();
    const settled = await watchUntil(watcher, "the deployment settled", async () => {
      const row = await h.db.chainTransaction.findFirstOrThrow({ where: { batchId: batch.id } });
      return row.status === "confirmed" ? row : undefined;
    });
    return { batch, settled, watcher };
  }

  /** Replaces the blocks from the transaction's own to the head with new ones holding `include` (raw transactions, each in the first new block). */
  async function reorgOut(blockNumber: bigint, include: string[] = []): Promise<number> {
    const depth = (await h.chain.provider.getBlockNumber()) - Number(blockNumber) + 1;
    await h.chain.provider.send("anvil_reorg", [depth, include.map((raw) => [raw, 0])]);
    return depth;
  }

  it("sends the stored transaction again, as signed, and records it restored once mined again: booked once", async () => {
    const partner = await partnerWithGasWallet(h);
    const { batch, settled, watcher } = await settledDeploy(partner);
    const receipt = await h.chain.provider.getTransactionReceipt(settled.hash);
    expect(settled).toMatchObject({ blockNumber: BigInt(receipt!.blockNumber), blockHash: receipt!.blockHash, reorg: null });
    // While its block stays canonical, re-checking it changes nothing.
    for (let round = 0; round < 3; round++) await watcher.runOnce();
    expect((await stored(settled.id)).reorg).toBeNull();

    const before = { detected: await counted("detected"), restored: await counted("restored") };
    await reorgOut(settled.blockNumber!);
    expect(await h.chain.provider.getTransactionReceipt(settled.hash)).toBeNull();
    expect(await h.chain.provider.getTransactionCount(partner.gasWallet)).toBe(0);

    // The next round sees the block gone, records it, and sends the same signed transaction again (anvil mines it at once).
    await watcher.runOnce();
    expect(await stored(settled.id)).toMatchObject({ status: "confirmed", reorg: "reorged", reorgedAt: expect.any(Date) });
    expect(await counted("detected")).toBe(before.detected + 1);
    expect(reported("a settled transaction's block left the canonical chain", settled.id)).toEqual([
      expect.objectContaining({ batchId: batch.id, purpose: "deploy_delegate", hash: settled.hash, nonce: "0", settledIn: { blockNumber: Number(settled.blockNumber), blockHash: settled.blockHash } }),
    ]);

    await watchUntil(watcher, "the transaction restored", async () => ((await stored(settled.id)).reorg === "restored" ? true : undefined));
    const again = await h.chain.provider.getTransactionReceipt(settled.hash);
    expect(again?.status).toBe(1);
    expect(again!.blockHash).not.toBe(settled.blockHash);
    expect(await counted("restored")).toBe(before.restored + 1);
    expect(await counted("detected")).toBe(before.detected + 1);

    // Nothing new was signed, and the ledger heard of the transaction once.
    expect(await h.db.chainTransaction.findMany({ where: { gasWalletId: partner.gasWalletId } })).toHaveLength(1);
    expect((await outboxOf(h, "tx.outcome")).filter((m) => (m.payload as { transactionId: string }).transactionId === settled.id)).toHaveLength(1);
    expect(await h.db.batch.findUniqueOrThrow({ where: { id: batch.id } })).toMatchObject({ status: "confirmed" });
    // Its settlement stands as booked: block and hash of the block it settled in.
    expect(await stored(settled.id)).toMatchObject({ blockNumber: settled.blockNumber, blockHash: settled.blockHash, gasUsed: settled.gasUsed });
  });

  it("records a reorged transaction lost when another transaction of the gas wallet took its nonce in the new chain", async () => {
    const partner = await partnerWithGasWallet(h);
    const { batch, settled, watcher } = await settledDeploy(partner);
    const before = { detected: await counted("detected"), lost: await counted("lost") };

    // Someone else with the gas wallet's key: their self-transfer holds nonce 0 in the new chain.
    const signer = partner.signer.connect(h.chain.provider);
    const theirs = await signer.signTransaction(await signer.populateTransaction({ to: partner.gasWallet, value: 0n, nonce: 0 }));
    await reorgOut(settled.blockNumber!, [theirs]);
    expect(await h.chain.provider.getTransactionCount(partner.gasWallet)).toBe(1);
    expect(await h.chain.provider.getTransactionReceipt(settled.hash)).toBeNull();

    // Lost only once rounds at later heads spanning 12 blocks agree (a lagging backend's null receipt alone says nothing): blocks go by between rounds.
    await watchUntil(watcher, "the transaction lost", async () => {
      if ((await stored(settled.id)).reorg === "lost") return true;
      await h.chain.provider.send("anvil_mine", ["0x5"]);
      return undefined;
    });
    expect(await counted("detected")).toBe(before.detected + 1);
    expect(await counted("lost")).toBe(before.lost + 1);
    expect(reported("another transaction took a reorged transaction's nonce", settled.id)).toEqual([expect.objectContaining({ batchId: batch.id, hash: settled.hash })]);
    // Never sent into a nonce that is gone, nor replaced by anything new.
    expect(await h.chain.provider.getTransactionReceipt(settled.hash)).toBeNull();
    expect(await h.db.chainTransaction.findMany({ where: { gasWalletId: partner.gasWalletId } })).toHaveLength(1);
    expect(await stored(settled.id)).toMatchObject({ status: "confirmed", reorg: "lost" });
  });
});
