import { decodeSweepOutcomes } from "@sweep/contracts";
import { toBigInt } from "@sweep/db";
import {
  activeHotWallet,
  createTestPartner,
  eventually,
  fundedDeposit,
  matchSweeps,
  partnerApi,
  settledGasWallet,
  startRpcFaultProxy,
  startStack,
  untilEnded,
  type RpcFaultProxy,
  type ServiceName,
  type Stack,
  type TestPartner,
} from "@sweep/testkit";
import { Wallet, parseEther } from "ethers";

// A partner sweeps on chain 97 through a fault proxy standing in for a geth node's RPC (1 s
// blocks), with the whole suite running as processes. The chain's TX_FEE_CAP_97 lets a transaction
// cost at most about 800,000 gas at the tip (seven first-time sweeps); later the node's own cap is
// lower still (about 600,000 gas, three of them), refused as geth's --rpc.txfeecap refuses; then
// the node's pool holds a transaction of one deposit address of a batch ("authority already
// reserved"). Every batch over a cap is split, never dropped; the reserved address leaves its batch
// and is swept once the pool lets it go; each deposit is swept once on chain; the ledger equals the chain.

const CHAIN_ID = 97;
const FUNDING = parseEther("100");
const SERVICES: ServiceName[] = ["ledger", "chain-sender", "batcher", "api-gateway", "webhook-dispatcher"];
/** Gas, at the tip, our cap and the node's allow a transaction (the base fee is kept near zero). */
const OUR_CAP_GAS = 800_000n;
const NODE_CAP_GAS = 600_000n;

interface Sweep {
  id: string;
  status: string;
  attempts: number;
  swept_amount?: string;
  tx_hash?: string;
}

describe("batches within the node's fee cap, and a deposit address the pool holds reserved", () => {
  let stack: Stack;
  let proxy: RpcFaultProxy;
  let apiBase: string;
  let partner: TestPartner;
  let delegate: string;
  /** the chain's suggested tip: with the base fee near zero, what a transaction offers per gas */
  let tip: bigint;
  const hotWallet = Wallet.createRandom().address;
  const api = partnerApi(() => apiBase, () => partner.auth);
  const chain = () => stack.chain(CHAIN_ID);
  const sweepEnds = (id: string) => untilEnded<Sweep>(api, "/v1/sweeps", id, 90_000);
  const sweepOf = async (id: string) => (await api("GET", `/v1/sweeps/${id}`)).body as Sweep;
  const complaints = () => [...stack.services.values()].flatMap((s) => s.logLines().filter((l) => l.level === "warn" || l.level === "error").map((l) => `${s.name}: ${JSON.stringify(l)}`));

  /** First-time sweeps of these deposit addresses, posted together so the batcher gathers them into one batch. */
  const postFirstTime = (deposits: ReadonlyArray<Awaited<ReturnType<typeof fundedDeposit>>>) =>
    Promise.all(
      deposits.map(async (d) => {
        const res = await api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: d.owner.address, token: "USDT", authorization: d.authorization });
        expect(res.status).toBe(202);
        return res.body.id as string;
      }),
    );
  const depositsOf = (count: number, amount: bigint) => Promise.all(Array.from({ length: count }, () => fundedDeposit(chain(), delegate, amount)));
  const firstTimeSweeps = async (count: number, amount: bigint) => ({ ids: await postFirstTime(await depositsOf(count, amount)) });
  /** The stored transactions that carried these sweeps, from the sweeps' batches. */
  const transactionsOf = async (sweepIds: readonly string[]) => {
    const sweeps = await stack.db.sweep.findMany({ where: { id: { in: [...sweepIds] } }, select: { batchId: true } });
    return stack.db.chainTransaction.findMany({ where: { batchId: { in: sweeps.flatMap((s) => (s.batchId ? [s.batchId] : [])) } }, orderBy: [{ nonce: "asc" }, { replacement: "asc" }] });
  };
  const cost = (t: { gasLimit: bigint; maxFeePerGas: Parameters<typeof toBigInt>[0] }) => t.gasLimit * toBigInt(t.maxFeePerGas);

  beforeAll(async () => {
    stack = await startStack({ blockTime: 1, services: [] });
    // The base fee near zero, so a transaction's max fee is about the tip and the caps count gas.
    await chain().provider.send("anvil_setNextBlockBaseFeePerGas", ["0x1"]);
    tip = BigInt((await chain().provider.send("eth_maxPriorityFeePerGas", [])) as string);
    proxy = await startRpcFaultProxy({ target: chain().rpcUrl, backends: 2 });
    Object.assign(stack.env, { [`RPC_URL_${CHAIN_ID}`]: proxy.url, [`TX_FEE_CAP_${CHAIN_ID}`]: String(OUR_CAP_GAS * tip) });
    await Promise.all(SERVICES.map((name) => stack.restart(name)));
    apiBase = `http://127.0.0.1:${stack.services.get("api-gateway")!.port}`;
    partner = await createTestPartner(stack.db, "node fee cap");
    await chain().setBalance(partner.gasWallet, FUNDING);
    delegate = (await activeHotWallet(api, CHAIN_ID, hotWallet)).delegate;
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await proxy?.close();
  }, 60_000);

  it("splits twelve first-time sweeps over TX_FEE_CAP_97 into transactions within it, each swept once", async () => {
    try {
      const { ids } = await firstTimeSweeps(12, 1_000n);
      expect((await Promise.all(ids.map(sweepEnds))).map((s) => [s.status, s.swept_amount, s.attempts])).toEqual(ids.map(() => ["swept", "1000", 1]));
      const confirmed = (await transactionsOf(ids)).filter((t) => t.status === "confirmed");
      expect(new Set(confirmed.map((t) => t.hash)).size).toBeGreaterThan(1);
      for (const t of confirmed) expect(cost(t)).toBeLessThanOrEqual(OUR_CAP_GAS * tip);
      // Nothing over our own cap was signed: the split came before signing.
      expect(proxy.counts().faults.poolRefused).toBe(0);
    } catch (err) {
      throw new Error(`${String(err)}\ntip ${tip}\n${complaints().slice(-30).join("\n")}`);
    }
  }, 120_000);

  it("answers the node's lower cap ('exceeds the configured cap') by sending smaller transactions at the refused nonce, never dropping a sweep", async () => {
    proxy.feeCap(NODE_CAP_GAS * tip);
    try {
      const { ids } = await firstTimeSweeps(12, 2_000n);
      expect((await Promise.all(ids.map(sweepEnds))).map((s) => [s.status, s.swept_amount, s.attempts])).toEqual(ids.map(() => ["swept", "2000", 1]));
      const transactions = await transactionsOf(ids);
      const confirmed = transactions.filter((t) => t.status === "confirmed");
      for (const t of confirmed) expect(cost(t)).toBeLessThanOrEqual(NODE_CAP_GAS * tip);
      // The refused ones were never taken: each was dropped for a smaller one stored at its nonce.
      const refused = transactions.filter((t) => t.status === "dropped");
      expect(refused.length).toBeGreaterThan(0);
      for (const t of refused) {
        expect(cost(t)).toBeGreaterThan(NODE_CAP_GAS * tip);
        expect(transactions.some((o) => o.nonce === t.nonce && o.replacement > t.replacement && o.batchId === t.batchId)).toBe(true);
      }
      expect(proxy.counts().faults.poolRefused).toBeGreaterThanOrEqual(refused.length);
    } catch (err) {
      throw new Error(`${String(err)}\ntip ${tip}\n${complaints().slice(-30).join("\n")}`);
    } finally {
      await proxy.clear("pool");
    }
  }, 120_000);

  it("takes a deposit address with a transaction of its own in the pool out of its batch: the others are swept at once, it once the pool lets it go", async () => {
    const marked = await fundedDeposit(chain(), delegate, 3_000n);
    proxy.reserveAuthorities([marked.owner.address]);
    const refusedBefore = proxy.counts().faults.poolRefused;
    try {
      const posted = await postFirstTime([marked, ...(await depositsOf(4, 3_000n))]);
      const [markedId, ids] = [posted[0]!, posted.slice(1)];
      const others = await Promise.all(ids.map(sweepEnds));
      expect(others.map((s) => [s.status, s.swept_amount])).toEqual(ids.map(() => ["swept", "3000"]));
      // Swept while the pool still holds the marked address: it did not hold them back, and is queued for a later batch.
      expect(await sweepOf(markedId)).toMatchObject({ status: "queued" });
      expect(proxy.counts().faults.poolRefused).toBeGreaterThan(refusedBefore);
      // It was in the batch the node refused: that transaction was dropped and the others' went at its nonce.
      const markedBatches = await stack.db.batchItem.findMany({ where: { sweepId: markedId }, select: { batchId: true } });
      const refused = await stack.db.chainTransaction.findMany({ where: { batchId: { in: markedBatches.map((b) => b.batchId) }, status: "dropped" } });
      expect(refused.length).toBeGreaterThan(0);
      const carried = await stack.db.chainTransaction.findFirstOrThrow({ where: { hash: others[0]!.tx_hash! } });
      expect(refused.some((t) => t.nonce === carried.nonce && t.batchId === carried.batchId)).toBe(true);

      await proxy.clear("pool");
      // Not counted as a failed attempt: its one attempt is the batch that carried it.
      expect(await sweepEnds(markedId)).toMatchObject({ status: "swept", swept_amount: "3000", attempts: 1 });
    } catch (err) {
      throw new Error(`${String(err)}\n${complaints().slice(-30).join("\n")}`);
    } finally {
      await proxy.clear("pool");
    }
  }, 120_000);

  it("swept each deposit once on chain, and keeps the ledger equal to the chain", async () => {
    const settled = await settledGasWallet(stack.db, chain(), partner.partnerId);
    const sweeps = await stack.db.sweep.findMany({ where: { partnerId: partner.partnerId } });
    expect(sweeps.every((s) => s.status === "swept")).toBe(true);
    const logs = await chain().provider.getLogs({ address: delegate, fromBlock: 0, toBlock: "latest" });
    const onChain = logs.flatMap((log) => decodeSweepOutcomes([log], delegate).flatMap((o) => (o.swept ? [{ account: o.account, txHash: log.transactionHash, amount: o.amount }] : [])));
    const match = matchSweeps(
      sweeps.map((s) => ({ id: s.id, account: s.account, txHash: s.txHash!, amount: BigInt(s.sweptAmount!.toFixed()) })),
      onChain,
    );
    expect(match).toEqual({ doubles: [], missing: [] });
    const { gas, withdrawal, topup } = settled.entries;
    expect(gas + withdrawal + topup).toBe(settled.balance);
    expect(topup).toBe(FUNDING);
    await eventually("nothing left in flight", async () => ((await stack.db.chainTransaction.count({ where: { status: { in: ["signed", "broadcast"] } } })) === 0 ? true : undefined));
    const byStatus = await stack.db.chainTransaction.groupBy({ by: ["status"], where: { chainId: CHAIN_ID }, _count: true });
    console.log(
      `node fee cap story: ${sweeps.length} sweeps swept in ${new Set(sweeps.map((s) => s.txHash)).size} transactions; stored by status ${byStatus.map((g) => `${g.status} ${g._count}`).join(", ")}; ` +
        `the node refused ${proxy.counts().faults.poolRefused}; tip ${tip} wei, caps ${OUR_CAP_GAS} / ${NODE_CAP_GAS} gas at the tip`,
    );
  }, 90_000);
});
