import type { Environment } from "@prisma/client";
import type { Db, Tx } from "./client";
import { feeReserve, feesDueOnChains } from "./fee-reserve";

export interface WithdrawalOptions {
  /** the environment whose partners' gas wallets are looked at */
  environment: Environment;
  /** the environment's chains */
  chainIds: readonly number[];
  /** only this chain of the environment */
  chainId?: number;
  /**
   * Opens the batch, in the caller's transaction, and announces it to the chain's sender
   * (batch.ready): callers pass openAnnouncedBatch of @sweep/lifecycle, which writes every state
   * change, and which this package does not depend on. Returns the batch's id.
   */
  openBatch: OpenWithdrawalBatch;
}

/** A withdrawal batch to open: a drain's sends the balance to `drainTo`. */
export interface WithdrawalBatchDraft {
  purpose: "withdrawal";
  chainId: number;
  gasWalletId: string;
  drainTo?: string;
}

export type OpenWithdrawalBatch = (tx: Tx, batch: WithdrawalBatchDraft) => Promise<string>;

export interface CreatedWithdrawal {
  batchId: string;
  partnerId: string;
  gasWalletId: string;
  chainId: number;
  /** the fees due when the batch was created; the chain-sender sends what is due when it sends */
  feesDue: bigint;
}

/**
 * Creates a withdrawal batch, with its batch.ready, for each gas wallet of the environment's
 * partners and each chain (or the one asked) with fees due and no withdrawal of that gas wallet
 * and chain under way. Each batch is created in a transaction of its own, holding the gas
 * wallet's row, so concurrent callers (the ledger's schedule, `sweepctl fees withdraw`) never
 * create two.
 */
export async function createWithdrawalBatches(db: Db, options: WithdrawalOptions): Promise<CreatedWithdrawal[]> {
  const { environment, chainIds, chainId } = options;
  if (chainId !== undefined && !chainIds.includes(chainId)) {
    throw new Error(`chain ${chainId} is not a chain of the ${environment} environment (${chainIds.join(", ")})`);
  }
  const due = await feesDueOnChains(db, environment, chainId === undefined ? chainIds : [chainId]);
  if (due.length === 0) return [];
  const gasWallets = await db.gasWallet.findMany({ where: { partnerId: { in: [...new Set(due.map((d) => d.partnerId))] } }, select: { id: true, partnerId: true } });
  const gasWalletOf = new Map(gasWallets.map((w) => [w.partnerId, w.id]));

  const created: CreatedWithdrawal[] = [];
  for (const { partnerId, chainId } of due) {
    const gasWalletId = gasWalletOf.get(partnerId);
    if (gasWalletId === undefined) continue;
    const batch = await createWithdrawalBatch(db, { partnerId, gasWalletId, chainId }, options.openBatch);
    if (batch) created.push(batch);
  }
  return created;
}

async function createWithdrawalBatch(
  db: Db,
  wallet: { partnerId: string; gasWalletId: string; chainId: number },
  openBatch: OpenWithdrawalBatch,
): Promise<CreatedWithdrawal | null> {
  const { partnerId, gasWalletId, chainId } = wallet;
  return db.$transaction(async (tx) => {
    // FOR NO KEY UPDATE: excludes the other creators, not the batches and transactions others insert for this gas wallet.
    await tx.$queryRaw`SELECT id FROM gas_wallets WHERE id = ${gasWalletId}::uuid FOR NO KEY UPDATE`;
    if (await withdrawalUnderWay(tx, gasWalletId, chainId)) return null;
    const { due } = await feeReserve(tx, partnerId, chainId);
    if (due <= 0n) return null;
    const batchId = await openBatch(tx, { purpose: "withdrawal", chainId, gasWalletId });
    return { batchId, partnerId, gasWalletId, chainId, feesDue: due };
  });
}

/**
 * Whether the gas wallet's last withdrawal on the chain is still under way: open or sent, or
 * confirmed with a mined transaction the ledger has not booked yet. Until the ledger books it,
 * the fees due still count what it withdrew, and a new withdrawal would send them a second time.
 * Only the last one can be under way, since none is created while another is.
 */
export async function withdrawalUnderWay(tx: Tx, gasWalletId: string, chainId: number): Promise<boolean> {
  const last = await tx.batch.findFirst({
    where: { gasWalletId, chainId, purpose: "withdrawal" },
    orderBy: { createdAt: "desc" },
    select: { status: true, transactions: { where: { status: "confirmed" }, select: { hash: true } } },
  });
  if (!last) return false;
  if (last.status === "open" || last.status === "sent") return true;
  const mined = last.transactions.map((t) => t.hash);
  if (last.status !== "confirmed" || mined.length === 0) return false;
  // A withdrawal entry when it moved the fees, a gas entry when its receipt failed.
  const booked = await tx.ledgerEntry.count({ where: { dedupeKey: { in: mined.flatMap((hash) => [`withdrawal:${hash}`, `gas:${hash}`]) } } });
  return booked === 0;
}
