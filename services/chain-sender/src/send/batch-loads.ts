import { feeReserve, toBigIntOrNull, type Db } from "@sweep/db";
import { states, unfinishedStates } from "@sweep/lifecycle";
import type { BatchBase, BatchToSend, DeployBatchToSend, OpenBatchRow, RevocationBatchToSend, SweepBatchToSend, WithdrawalBatchToSend } from "../batch-types";
import type { RevocationItemRow } from "./revocation-plan";

/** Each purpose's part of an open batch loaded for sending, or why it is not sent (batch-purposes.ts chooses). */
type Loaded<B extends BatchToSend> = Promise<{ batch: B } | { skip: string }>;

export async function loadSweepBatch(db: Db, batch: OpenBatchRow): Loaded<SweepBatchToSend> {
  const hotWallet = batch.hotWallet;
  if (!hotWallet) return { skip: "a sweep batch without a hot wallet" };
  // Items whose sweep is no longer processing in this batch were settled by an earlier attempt (dropped by simulation).
  const items = await db.batchItem.findMany({
    where: { batchId: batch.id, sweep: { status: states.sweep.processing, batchId: batch.id } },
    include: { sweep: true },
    orderBy: { position: "asc" },
  });
  return {
    batch: {
      ...(await batchBase(db, batch)),
      hotWalletId: hotWallet.id,
      purpose: "sweep",
      delegate: hotWallet.delegate,
      items: items.map((item) => ({
        position: item.position,
        sweepId: item.sweep!.id,
        withAuthorization: item.withAuthorization,
        sweep: {
          account: item.sweep!.account,
          tokenAddress: item.sweep!.tokenAddress,
          amount: toBigIntOrNull(item.sweep!.amount),
          keepOneUnit: item.sweep!.keepOneUnit,
          authorization: item.sweep!.authorization,
        },
      })),
    },
  };
}

export async function loadDeployBatch(db: Db, batch: OpenBatchRow): Loaded<DeployBatchToSend> {
  const hotWallet = batch.hotWallet;
  if (!hotWallet) return { skip: "a deploy_delegate batch without a hot wallet" };
  return { batch: { ...(await batchBase(db, batch)), hotWalletId: hotWallet.id, purpose: "deploy_delegate", hotWallet: hotWallet.address } };
}

export async function loadRevocationBatch(db: Db, batch: OpenBatchRow): Loaded<RevocationBatchToSend> {
  return { batch: { ...(await batchBase(db, batch)), hotWalletId: null, purpose: "revocation", items: await openRevocationItems(db, batch.id) } };
}

export async function loadWithdrawalBatch(db: Db, batch: OpenBatchRow): Loaded<WithdrawalBatchToSend> {
  return { batch: { ...(await batchBase(db, batch)), hotWalletId: null, purpose: "withdrawal", drainTo: batch.drainTo } };
}

/** What every batch to send carries but its hot wallet: its gas wallet, and what that wallet's balance must keep. */
async function batchBase(db: Db, batch: { id: string; chainId: number; gasWalletId: string }): Promise<Omit<BatchBase, "hotWalletId">> {
  const { id, chainId } = batch;
  const gasWallet = await db.gasWallet.findUniqueOrThrow({
    where: { id: batch.gasWalletId },
    select: { id: true, address: true, keyCustody: true, encryptedKey: true, kekId: true, keyLabel: true, partnerId: true },
  });
  return {
    id,
    chainId,
    partnerId: gasWallet.partnerId,
    gasWallet: { id: gasWallet.id, address: gasWallet.address, keyCustody: gasWallet.keyCustody, encryptedKey: gasWallet.encryptedKey, kekId: gasWallet.kekId, keyLabel: gasWallet.keyLabel },
    feesDue: (await feeReserve(db, gasWallet.partnerId, chainId)).due,
    inFlightCost: await inFlightCost(db, gasWallet.id, chainId),
  };
}

/** A revocation batch's items whose revocation is still processing in it: one settled otherwise is not sent again. */
async function openRevocationItems(db: Db, batchId: string): Promise<RevocationItemRow[]> {
  const items = await db.batchItem.findMany({
    where: { batchId, revocation: { status: states.revocation.processing, batchId } },
    select: { position: true, revocation: { select: { id: true, account: true, authorization: true } } },
    orderBy: { position: "asc" },
  });
  return items.map((item) => ({ position: item.position, revocationId: item.revocation!.id, account: item.revocation!.account, authorization: item.revocation!.authorization }));
}

/**
 * The most the gas wallet's unmined transactions on the chain can still take from its balance:
 * per nonce, the costliest of its versions in flight. The node's balance does not show them yet.
 */
async function inFlightCost(db: Db, gasWalletId: string, chainId: number): Promise<bigint> {
  const [row] = await db.$queryRaw<Array<{ cost: string }>>`
    SELECT COALESCE(SUM(cost), 0)::text AS cost FROM (
      SELECT MAX(gas_limit::numeric * max_fee_per_gas) AS cost FROM chain_transactions
       WHERE gas_wallet_id = ${gasWalletId}::uuid AND chain_id = ${chainId} AND status = ANY(${unfinishedStates.transaction}::"TxStatus"[])
       GROUP BY nonce) AS per_nonce`;
  return BigInt(row?.cost ?? "0");
}
