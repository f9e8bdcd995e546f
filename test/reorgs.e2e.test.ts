import { contractAt } from "@sweep/contracts";
import { toBigInt } from "@sweep/db";
import {
  activeHotWallet,
  authorizationBody,
  createTestPartner,
  eventually,
  fundedDeposit,
  partnerApi,
  readMetrics,
  settledGasWallet,
  startStack,
  untilEnded,
  type Stack,
  type TestPartner,
} from "@sweep/testkit";
import { Transaction, Wallet, parseEther, type TransactionReceipt } from "ethers";

// Reorgs through the running services, on anvil with 1 s blocks and 4 confirmations on chain 97.
// anvil_reorg replaces the last blocks with new ones and drops the transactions they held (geth
// would return them to its pool), so the chain-sender has to send a batch again itself:
//   1. a sweep's transaction leaves the chain before its depth: sent again as signed, swept once;
//   2. it leaves after settlement (a reorg deeper than the confirmations): detected, reported with
//      its sweeps, counted, sent again as signed; booked once;
//   3. the same, but another transaction of the gas wallet takes the nonce in the new chain: lost,
//      reported to the operator; nothing booked twice.
// After each, the gas wallet's ledger equals its balance on chain, and the only top-ups beyond the
// initial funding are the gas the chain charged differently from what was booked. Then a deposit:
//   4. reorged out before its confirmations: never announced, never swept by the partner's policy,
//      which sweeps a deposit that stays.

const CHAIN_ID = 97;
const CONFIRMATIONS = 4;
const FUNDING = parseEther("100");

interface SweepBody {
  id: string;
  status: string;
  tx_hash?: string;
  swept_amount?: string;
}

describe("reorgs: a sweep's transaction leaves the canonical chain", () => {
  let stack: Stack;
  let partner: TestPartner;
  const hotWallet = Wallet.createRandom().address;
  let delegate: string;
  /** what the chain charged differently from the gas booked, summed over the stories: the top-ups it explains */
  let gasChargedDifferently = 0n;

  const api = partnerApi(() => stack.api, () => partner.auth);
  const chain = () => stack.chain(CHAIN_ID);
  const chainSender = () => stack.services.get("chain-sender")!;

  async function requestSweep(usdt: bigint): Promise<{ id: string; account: string }> {
    const { owner, authorization } = await fundedDeposit(chain(), delegate, usdt);
    const res = await api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: owner.address, token: "USDT", authorization });
    expect(res.status).toBe(202);
    return { id: res.body.id, account: owner.address };
  }

  const ended = (id: string) => untilEnded<SweepBody>(api, "/v1/sweeps", id, 90_000, 300);

  /** The stored transaction of the sweep's batch once the chain has mined it, with its receipt. */
  const minedTransaction = (sweepId: string) =>
    eventually(
      `the transaction of sweep ${sweepId} mined`,
      async () => {
        const { batchId } = await stack.db.sweep.findUniqueOrThrow({ where: { id: sweepId } });
        if (!batchId) return undefined;
        for (const tx of await stack.db.chainTransaction.findMany({ where: { batchId } })) {
          const receipt = await chain().provider.getTransactionReceipt(tx.hash);
          if (receipt) return { tx, receipt };
        }
        return undefined;
      },
      60_000,
      100,
    );

  /** The head when the last reorg was made: the ledger is checked once reconciled past it. */
  let reorgHead = 0;

  /** Replaces every block from `receipt`'s to the head with new ones, holding `include` (raw transactions) in the first. */
  async function reorgOut(receipt: TransactionReceipt, include: string[] = []): Promise<number> {
    // No block between reading the head and the reorg: one mined there would leave the receipt's block in the chain.
    await chain().provider.send("evm_setIntervalMining", [0]);
    try {
      reorgHead = await chain().provider.getBlockNumber();
      const depth = reorgHead - receipt.blockNumber + 1;
      await chain().provider.send("anvil_reorg", [depth, include.map((raw) => [raw, 0])]);
      return depth;
    } finally {
      await chain().provider.send("evm_setIntervalMining", [1]);
    }
  }

  const bookedGas = async (hash: string) => (await stack.db.ledgerEntry.findMany({ where: { kind: "gas", txHash: hash } })).map((e) => toBigInt(e.amount));
  const feeEntries = (sweepId: string) => stack.db.ledgerEntry.count({ where: { kind: "fee", sweepId } });
  const tokenBalance = (address: string) => contractAt("DevToken", chain().usdt.address, chain().provider).getFunction("balanceOf")(address) as Promise<bigint>;
  const reorgsCounted = async (outcome: string) => (await readMetrics(chainSender().metricsPort)).sum("sweep_settled_reorgs_total", { chain_id: String(CHAIN_ID), outcome }) ?? 0;
  const reported = (message: string, transactionId: string) => chainSender().logLines().filter((l) => l.level === "error" && l.message.startsWith(message) && l.transactionId === transactionId);

  /**
   * The gas wallet at rest, reconciled past `block` (a reorg keeps the head's height, so a reconciliation from before it
   * can look at rest): its ledger equals its balance, and the top-ups are the funding plus what the reorgs explain.
   */
  async function ledgerEqualsChain(block: number): Promise<void> {
    const wallet = await eventually(
      `the reconciliation past block ${block}`,
      async () => {
        const atRest = await settledGasWallet(stack.db, chain(), partner.partnerId, 10_000, CONFIRMATIONS);
        return atRest.reconciledBlock > block ? atRest : undefined;
      },
      90_000,
      500,
    );
    expect(wallet.entries.gas + wallet.entries.withdrawal + wallet.entries.topup).toBe(wallet.balance);
    expect(wallet.entries.topup).toBe(FUNDING + gasChargedDifferently);
  }

  beforeAll(async () => {
    stack = await startStack({
      blockTime: 1,
      // A classic benchmark a lone first sweep beats, so each sweep bears a fee and "booked once" counts its fee entry too.
      env: { [`CONFIRMATIONS_${CHAIN_ID}`]: String(CONFIRMATIONS), [`CLASSIC_GAS_${CHAIN_ID}_USDT`]: "150000,100000", RECONCILE_INTERVAL_MS: "200" },
    });
    partner = await createTestPartner(stack.db, "reorgs");
    await chain().setBalance(partner.gasWallet, FUNDING);
    delegate = (await activeHotWallet(api, CHAIN_ID, hotWallet, 90_000)).delegate;
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it("sends a batch reorged out before its confirmation depth again, as signed, and sweeps it once", async () => {
    const sweep = await requestSweep(5_000_000n);
    const sent = await eventually("the sweep's transaction broadcast", async () => {
      const { batchId } = await stack.db.sweep.findUniqueOrThrow({ where: { id: sweep.id } });
      return batchId ? ((await stack.db.chainTransaction.findFirst({ where: { batchId, status: "broadcast" } })) ?? undefined) : undefined;
    }, 60_000, 100);
    // The chain stops building blocks once it has mined the batch, and that block is replaced before it is 4 deep.
    await chain().provider.send("evm_setIntervalMining", [0]);
    let mined: TransactionReceipt | null;
    try {
      mined = await chain().provider.getTransactionReceipt(sent.hash);
      if (!mined) {
        await chain().provider.send("evm_mine", []);
        mined = await chain().provider.getTransactionReceipt(sent.hash);
      }
      expect((await stack.db.chainTransaction.findUniqueOrThrow({ where: { id: sent.id } })).status).toBe("broadcast");
      expect(await reorgOut(mined!)).toBeLessThan(CONFIRMATIONS);
    } finally {
      await chain().provider.send("evm_setIntervalMining", [1]);
    }
    const [tx, receipt] = [sent, mined!];
    expect(await chain().provider.getTransactionReceipt(tx.hash)).toBeNull();
    expect(await tokenBalance(sweep.account)).toBe(5_000_000n);

    const swept = await ended(sweep.id);
    expect(swept).toMatchObject({ status: "swept", tx_hash: tx.hash, swept_amount: "5000000" });
    // The same signed transaction, now in another block of the canonical chain, settled there.
    const again = await chain().provider.getTransactionReceipt(tx.hash);
    expect(again?.status).toBe(1);
    expect(again!.blockHash).not.toBe(receipt.blockHash);
    const transactions = await stack.db.chainTransaction.findMany({ where: { batchId: tx.batchId } });
    expect(transactions.map((t) => [t.hash, t.status, t.blockHash, t.reorg])).toEqual([[tx.hash, "confirmed", again!.blockHash, null]]);
    expect(await tokenBalance(sweep.account)).toBe(0n);
    expect(await tokenBalance(hotWallet)).toBe(5_000_000n);

    // Booked once: one gas entry (the cost the chain charged), one fee. A reorg within the depth is no error.
    expect(await bookedGas(tx.hash)).toEqual([-(again!.gasUsed * again!.gasPrice)]);
    expect(await feeEntries(sweep.id)).toBe(1);
    expect(reported("a settled transaction's block left the canonical chain", tx.id)).toEqual([]);
    await ledgerEqualsChain(reorgHead);
  }, 150_000);

  it("detects a settled batch reorged out deeper than its depth, reports its sweeps, and sends it again: booked once", async () => {
    const sweep = await requestSweep(7_000_000n);
    const swept = await ended(sweep.id);
    expect(swept.status).toBe("swept");
    const { tx, receipt } = await minedTransaction(sweep.id);
    const settled = await stack.db.chainTransaction.findUniqueOrThrow({ where: { id: tx.id } });
    expect(settled).toMatchObject({ status: "confirmed", blockHash: receipt.blockHash });
    const booked = await bookedGas(tx.hash);
    expect(booked).toHaveLength(1);

    const depth = await reorgOut(receipt);
    expect(depth).toBeGreaterThanOrEqual(CONFIRMATIONS);
    expect(await chain().provider.getTransactionReceipt(tx.hash)).toBeNull();

    // Logged as an error naming the batch and its sweeps, and counted.
    const [report] = await eventually("the reorg reported", async () => {
      const lines = reported("a settled transaction's block left the canonical chain", tx.id);
      return lines.length > 0 ? lines : undefined;
    });
    expect(report).toMatchObject({ batchId: tx.batchId, purpose: "sweep", hash: tx.hash, sweepIds: [sweep.id], settledIn: { blockNumber: receipt.blockNumber, blockHash: receipt.blockHash } });
    expect(await reorgsCounted("detected")).toBe(1);

    // The stored signed transaction goes out again; mined again and final, it is restored.
    await eventually("the transaction restored", async () => ((await stack.db.chainTransaction.findUniqueOrThrow({ where: { id: tx.id } })).reorg === "restored" ? true : undefined), 60_000, 300);
    const again = await chain().provider.getTransactionReceipt(tx.hash);
    expect(again?.status).toBe(1);
    expect(again!.blockHash).not.toBe(receipt.blockHash);
    expect(await reorgsCounted("restored")).toBe(1);
    expect(await tokenBalance(sweep.account)).toBe(0n);
    expect(await tokenBalance(hotWallet)).toBe(12_000_000n);

    // Nothing new was signed or booked: one transaction, one gas entry as first booked, one fee, still swept.
    expect((await stack.db.chainTransaction.findMany({ where: { batchId: tx.batchId } })).map((t) => t.hash)).toEqual([tx.hash]);
    expect(await bookedGas(tx.hash)).toEqual(booked);
    expect(await feeEntries(sweep.id)).toBe(1);
    expect(await ended(sweep.id)).toMatchObject({ status: "swept", tx_hash: tx.hash });
    // The new block's base fee differs: the reconciliation books what the chain charged beyond the booked gas.
    gasChargedDifferently += -booked[0]! - again!.gasUsed * again!.gasPrice;
    await ledgerEqualsChain(reorgHead);
  }, 150_000);

  it("reports a settled batch lost when another transaction took its nonce in the new chain: nothing booked twice", async () => {
    const sweep = await requestSweep(3_000_000n);
    expect((await ended(sweep.id)).status).toBe("swept");
    const { tx, receipt } = await minedTransaction(sweep.id);
    const booked = await bookedGas(tx.hash);

    // Someone with the gas wallet's key: their self-transfer holds our nonce in the new chain.
    const signer = partner.signer.connect(chain().provider);
    const theirs = await signer.signTransaction(await signer.populateTransaction({ to: partner.gasWallet, value: 0n, nonce: Number(tx.nonce) }));
    await reorgOut(receipt, [theirs]);
    expect(await chain().provider.getTransactionReceipt(tx.hash)).toBeNull();

    await eventually("the transaction lost", async () => ((await stack.db.chainTransaction.findUniqueOrThrow({ where: { id: tx.id } })).reorg === "lost" ? true : undefined), 60_000, 300);
    // The chain-sender logs it after the transaction that marked it lost committed: its line may still be on its way.
    await eventually("the loss reported", async () => (reported("another transaction took a reorged transaction's nonce", tx.id).length > 0 ? true : undefined), 10_000, 100);
    expect(reported("another transaction took a reorged transaction's nonce", tx.id)).toEqual([expect.objectContaining({ batchId: tx.batchId, sweepIds: [sweep.id] })]);
    expect(await reorgsCounted("lost")).toBe(1);
    expect(await reorgsCounted("detected")).toBe(2);
    // Ours is never mined at a nonce that is gone; the deposit still holds its tokens: the operator's case (runbook).
    expect(await chain().provider.getTransactionReceipt(tx.hash)).toBeNull();
    expect(await tokenBalance(sweep.account)).toBe(3_000_000n);
    expect(await bookedGas(tx.hash)).toEqual(booked);
    expect(await feeEntries(sweep.id)).toBe(1);

    // The chain refunded our booked gas and charged theirs: the reconciliation books both.
    const their = (await chain().provider.getTransactionReceipt(Transaction.from(theirs).hash!))!;
    gasChargedDifferently += -booked[0]! - their.gasUsed * their.gasPrice;
    await ledgerEqualsChain(reorgHead);
  }, 150_000);
  it("neither announces nor sweeps a deposit reorged out before its confirmations, while the partner's policy sweeps one that stays", async () => {
    const [gone, kept] = [Wallet.createRandom(), Wallet.createRandom()];
    const addresses = [gone, kept].map((owner) => ({ address: owner.address, authorization: authorizationBody(owner.authorizeSync({ address: delegate, nonce: 0n, chainId: BigInt(CHAIN_ID) })) }));
    expect((await api("POST", "/v1/deposit-addresses", { chain_id: CHAIN_ID, hot_wallet: hotWallet, addresses })).status).toBe(200);
    expect((await api("PUT", "/v1/sweep-policies", { chain_id: CHAIN_ID, token: "USDT", hot_wallet: hotWallet })).status).toBe(200);

    const minter = contractAt("DevToken", chain().usdt.address, await chain().provider.getSigner(0));
    const receipt = (await (await minter.getFunction("mint")(gone.address, 5_000_000n)).wait()) as TransactionReceipt;
    // No block on top until the reorg: the deposit has 1 of its 4 confirmations.
    await chain().provider.send("evm_setIntervalMining", [0]);
    await eventually("the deposit seen, pending", async () => ((await api("GET", `/v1/deposits?address=${gone.address}`)).body.items[0]?.status === "pending" ? true : undefined), 30_000, 200);
    await reorgOut(receipt);
    expect(await chain().provider.getTransactionReceipt(receipt.hash)).toBeNull();

    // A deposit that stays: confirmed, announced and swept by the policy, by which time the first is long past its depth.
    await chain().mintUsdt(kept.address, 7_000_000n);
    const swept = await eventually("the policy's sweep of the deposit that stayed", async () => {
      const [sweep] = (await api("GET", `/v1/sweeps?account=${kept.address}`)).body.items as Array<SweepBody & { created_by?: string }>;
      return sweep?.status === "swept" ? sweep : undefined;
    }, 90_000, 300);
    expect(swept).toMatchObject({ created_by: "policy", swept_amount: "7000000" });
    expect((await api("GET", `/v1/deposits?address=${gone.address}`)).body.items).toEqual([]);
    expect((await api("GET", `/v1/sweeps?account=${gone.address}`)).body.items).toEqual([]);
    // Every deposit.detected the partner was sent is of a deposit that stands: none of the one removed.
    const announced = await stack.db.event.findMany({ where: { partnerId: partner.partnerId, type: "deposit.detected" }, select: { subjectId: true } });
    expect(await stack.db.deposit.count({ where: { id: { in: announced.map((e) => e.subjectId!) } } })).toBe(announced.length);
    expect(await tokenBalance(gone.address)).toBe(0n);
    expect((await api("PUT", "/v1/sweep-policies", { chain_id: CHAIN_ID, token: "USDT", hot_wallet: hotWallet, enabled: false })).status).toBe(200);
  }, 150_000);
});
