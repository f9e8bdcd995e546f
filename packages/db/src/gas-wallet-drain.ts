import type { Environment } from "@prisma/client";
import type { Db, Tx } from "./client";
import { feeReserve } from "./fee-reserve";
import { withdrawalUnderWay, type WithdrawalOptions } from "./withdrawals";

export interface DrainOptions {
  environment: Environment;
  /** the environment's chains */
  chainIds: readonly number[];
  /** only this chain of the environment */
  chainId?: number;
  partnerId: string;
  /** where the gas wallet's balance goes, checksummed (the partner's new gas wallet after a key rotation) */
  to: string;
  openBatch: WithdrawalOptions["openBatch"];
}

export interface DrainPlan {
  partnerId: string;
  gasWalletId: string;
  gasWallet: string;
  to: string;
  /** the drain batch of each chain, when none was refused, with the fees due it leaves on the wallet */
  created: Array<{ chainId: number; batchId: string; feesDue: bigint }>;
  /** why a chain cannot be drained yet; none is drained while any is refused */
  refused: Array<{ chainId: number; why: string }>;
}

/**
 * Drain batches of a partner's gas wallet: withdrawals that send everything the wallet holds but the
 * fees due and their own gas to `to`, for a partner leaving the service or moving to a new gas
 * wallet. Only a disabled partner with nothing in flight is drained (what runs would need the
 * balance), on every chain asked or none: the checks and the batches are one transaction holding
 * the gas wallet's row, as withdrawals take it. The fees due stay on the wallet for `fees withdraw`:
 * what a withdrawal leaves due is often less than a transfer's gas, so requiring none would block.
 */
export async function createDrainBatches(db: Db, options: DrainOptions): Promise<DrainPlan> {
  const { environment, chainIds, chainId, partnerId, to } = options;
  if (chainId !== undefined && !chainIds.includes(chainId)) {
    throw new Error(`chain ${chainId} is not a chain of the ${environment} environment (${chainIds.join(", ")})`);
  }
  const partner = await db.partner.findUnique({ where: { id: partnerId }, select: { environment: true, enabled: true, gasWallet: { select: { id: true, address: true } } } });
  if (!partner || partner.environment !== environment) throw new Error(`no partner ${partnerId} in the ${environment} environment`);
  if (!partner.gasWallet) throw new Error(`partner ${partnerId} has no gas wallet`);
  const gasWallet = partner.gasWallet;
  if (partner.enabled) throw new Error(`partner ${partnerId} is enabled: disable it first (sweepctl partner disable ${partnerId}), so no new work needs the balance`);
  if (to.toLowerCase() === gasWallet.address.toLowerCase()) throw new Error(`${to} is the gas wallet itself`);

  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM gas_wallets WHERE id = ${gasWallet.id}::uuid FOR NO KEY UPDATE`;
    const chains = chainId === undefined ? chainIds : [chainId];
    const refused: DrainPlan["refused"] = [];
    for (const chain of chains) {
      const why = await drainRefusal(tx, { partnerId, gasWalletId: gasWallet.id, chainId: chain });
      if (why) refused.push({ chainId: chain, why });
    }
    const plan = { partnerId, gasWalletId: gasWallet.id, gasWallet: gasWallet.address, to, refused };
    if (refused.length > 0) return { ...plan, created: [] };
    const created: DrainPlan["created"] = [];
    for (const chain of chains) {
      const batchId = await options.openBatch(tx, { purpose: "withdrawal", chainId: chain, gasWalletId: gasWallet.id, drainTo: to });
      created.push({ chainId: chain, batchId, feesDue: (await feeReserve(tx, partnerId, chain)).due });
    }
    return { ...plan, created };
  });
}

/** Why the gas wallet cannot be drained on the chain now, or null. */
async function drainRefusal(tx: Tx, wallet: { partnerId: string; gasWalletId: string; chainId: number }): Promise<string | null> {
  const { partnerId, gasWalletId, chainId } = wallet;
  const unfinished = { partnerId, chainId, status: { in: ["queued" as const, "processing" as const] } };
  const [sweeps, revocations, batches] = await Promise.all([
    tx.sweep.count({ where: unfinished }),
    tx.revocation.count({ where: unfinished }),
    tx.batch.count({ where: { gasWalletId, chainId, status: { in: ["open", "sent"] } } }),
  ]);
  // A sweep is processing until the ledger settles its batch, fee included: none left means every fee is booked.
  if (sweeps + revocations > 0) return `${sweeps} sweeps and ${revocations} revocations are not final yet: wait until they end`;
  if (batches > 0 || (await withdrawalUnderWay(tx, gasWalletId, chainId))) return "a transaction of the gas wallet is under way: wait until it settles";
  return null;
}
