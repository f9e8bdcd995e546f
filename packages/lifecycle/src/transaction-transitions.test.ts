import { randomBytes } from "node:crypto";
import { createDb, type Db, type TxReorg, type TxStatus } from "@sweep/db";
import { settledReorgsTotal } from "@sweep/metrics";
import { createTestPartner } from "@sweep/testkit";
import { changeReorg, changeTransactions, storeTransaction, type MinedReceipt, type TransactionChange } from "./transaction-transitions";

const chainId = 97;
const hash = () => `0x${randomBytes(32).toString("hex")}`;

/** A stored transaction's changes and a settled one's reorg, on the real database. */
describe("the changes of a transaction's state", () => {
  let db: Db;
  let gasWalletId: string;
  let nonce = 0n;

  beforeAll(async () => {
    db = createDb(process.env.DATABASE_URL!);
    const { partnerId } = await createTestPartner(db, "transaction transitions partner");
    ({ id: gasWalletId } = await db.gasWallet.findUniqueOrThrow({ where: { partnerId } }));
  });
  afterAll(() => db.$disconnect());
  beforeEach(() => settledReorgsTotal.reset());

  const draft = (at: bigint, replacement = 0) => ({ chainId, gasWalletId, nonce: at, replacement, hash: hash(), rawTx: "0x02", gasLimit: 21_000n, maxFeePerGas: "3", maxPriorityFeePerGas: "1" });
  const stored = async (status: TxStatus, extra: { at?: bigint; replacement?: number; reorg?: TxReorg } = {}) =>
    (await db.chainTransaction.create({ data: { ...draft(extra.at ?? nonce++, extra.replacement), status, reorg: extra.reorg } })).id;
  const columns = async (id: string) => {
    const t = await db.chainTransaction.findUniqueOrThrow({ where: { id } });
    return {
      status: t.status,
      broadcast: t.broadcastAt !== null,
      abandonedAtBlock: t.abandonedAtBlock,
      mined: [t.gasUsed, t.effectiveGasPrice?.toFixed() ?? null, t.l1Fee?.toFixed() ?? null, t.minimumL1Fee?.toFixed() ?? null, t.blockNumber, t.blockHash, t.succeeded, t.minedAt !== null],
      reorg: [t.reorg, t.reorgedAt !== null],
    };
  };
  const untouched = { broadcast: false, abandonedAtBlock: null, mined: [null, null, null, null, null, null, null, false], reorg: [null, false] };
  const receipt: MinedReceipt = { gasUsed: 21_000n, effectiveGasPrice: 10n ** 30n + 7n, l1Fee: 10n ** 25n + 3n, minimumL1Fee: 10n ** 20n + 9n, blockNumber: 1234, blockHash: hash(), succeeded: true };

  it("stores a transaction signed, before any broadcast", async () => {
    const { id, nonce: at } = await storeTransaction(db, draft(nonce++));
    expect(await columns(id)).toEqual({ status: "signed", ...untouched });
    expect(typeof at).toBe("bigint");
  });

  it.each<[string, TxStatus, TransactionChange, Partial<Awaited<ReturnType<typeof columns>>>]>([
    ["signed → broadcast: when the node took it", "signed", { to: "broadcast" }, { status: "broadcast", broadcast: true }],
    ["broadcast → dropped: given up at a head", "broadcast", { to: "dropped", abandonedAtBlock: 77 }, { status: "dropped", abandonedAtBlock: 77n }],
    ["signed → confirmed: the receipt's columns", "signed", { to: "confirmed", receipt }, { status: "confirmed", mined: [21_000n, (10n ** 30n + 7n).toString(), (10n ** 25n + 3n).toString(), (10n ** 20n + 9n).toString(), 1234n, receipt.blockHash, true, true] }],
  ])("%s, exactly, once", async (_what, from, change, expected) => {
    const id = await stored(from);
    expect(await changeTransactions(db, { ids: [id] }, change)).toBe(1);
    expect(await changeTransactions(db, { ids: [id] }, change)).toBe(0);
    expect(await columns(id)).toEqual({ ...untouched, ...expected });
  });

  it("replaces the others of a mined one's nonce still in flight, nothing else", async () => {
    const at = nonce++;
    const [mined, signed, broadcast, dropped] = [await stored("confirmed", { at }), await stored("signed", { at, replacement: 1 }), await stored("broadcast", { at, replacement: 2 }), await stored("dropped", { at, replacement: 3 })];
    const elsewhere = await stored("signed");
    const change = () => changeTransactions(db, { othersOfNonce: { chainId, gasWalletId, nonce: at, mined } }, { to: "replaced" });
    expect(await change()).toBe(2);
    expect(await change()).toBe(0);
    expect(await Promise.all([mined, signed, broadcast, dropped, elsewhere].map(async (id) => (await columns(id)).status))).toEqual(["confirmed", "replaced", "replaced", "dropped", "signed"]);
  });

  it("narrowed by the caller: a refused one is dropped only while signed", async () => {
    const [signed, broadcast] = [await stored("signed"), await stored("broadcast")];
    expect(await changeTransactions(db, { ids: [signed, broadcast] }, { to: "dropped", abandonedAtBlock: 5 }, ["signed"])).toBe(1);
    expect([(await columns(signed)).status, (await columns(broadcast)).status]).toEqual(["dropped", "broadcast"]);
  });

  it("confirms a dropped one only as the correction asks: never by the ordinary change", async () => {
    const id = await stored("dropped");
    expect(await changeTransactions(db, { ids: [id] }, { to: "confirmed", receipt })).toBe(0);
    expect((await columns(id)).status).toBe("dropped");
    expect(await changeTransactions(db, { ids: [id] }, { to: "confirmed", receipt }, ["dropped"])).toBe(1);
    expect((await columns(id)).status).toBe("confirmed");
  });

  it.each<[TxStatus, TransactionChange]>([
    ["confirmed", { to: "broadcast" }],
    ["replaced", { to: "dropped", abandonedAtBlock: 1 }],
    ["confirmed", { to: "replaced" }],
  ])("refuses %s → %o, writing nothing", async (from, change) => {
    const id = await stored(from);
    await expect(changeTransactions(db, { ids: [id] }, change, [from])).rejects.toThrow(`no change of a transaction leads from ${from} into ${change.to}`);
    expect(await columns(id)).toEqual({ ...untouched, status: from });
  });

  describe("a settled transaction's reorg", () => {
    const counted = async () => (await settledReorgsTotal.get()).values.map((v) => [v.labels.outcome, v.value]);

    it("null → reorged (with its time) → restored, each once, counted once", async () => {
      const id = await stored("confirmed");
      expect(await changeReorg(db, { id, chainId }, "reorged")).toBe(true);
      expect(await changeReorg(db, { id, chainId }, "reorged")).toBe(false);
      expect((await columns(id)).reorg).toEqual(["reorged", true]);
      expect(await changeReorg(db, { id, chainId }, "restored")).toBe(true);
      expect(await changeReorg(db, { id, chainId }, "restored")).toBe(false);
      expect(await changeReorg(db, { id, chainId }, "lost")).toBe(false);
      expect(await columns(id)).toEqual({ ...untouched, status: "confirmed", reorg: ["restored", true] });
      expect(await counted()).toEqual([
        ["detected", 1],
        ["restored", 1],
      ]);
    });

    it("reorged → lost", async () => {
      const id = await stored("confirmed", { reorg: "reorged" });
      expect(await changeReorg(db, { id, chainId }, "lost")).toBe(true);
      expect((await columns(id)).reorg[0]).toBe("lost");
      expect(await counted()).toEqual([["lost", 1]]);
    });

    it("changes nothing of one not confirmed, or not reorged", async () => {
      const [broadcast, settled] = [await stored("broadcast"), await stored("confirmed")];
      expect(await changeReorg(db, { id: broadcast, chainId }, "reorged")).toBe(false);
      expect(await changeReorg(db, { id: settled, chainId }, "lost")).toBe(false);
      expect([(await columns(broadcast)).reorg, (await columns(settled)).reorg]).toEqual([
        [null, false],
        [null, false],
      ]);
      expect(await counted()).toEqual([]);
    });
  });
});
