import type { LedgerPaidFor } from "@sweep/api-contract";
import type { Db } from "@sweep/db";

/** What a batch's transaction did, as a gas entry names it. */
export interface PaidBatch {
  id: string;
  purpose: "sweep" | "revocation" | "deploy_delegate" | "gap_fill" | "withdrawal";
  drainTo: string | null;
  hotWallet: string | null;
  sweeps: number;
  revocations: number;
}

export function paidFor(batch: PaidBatch): LedgerPaidFor {
  const named = { batch_id: batch.id, hot_wallet: batch.hotWallet };
  switch (batch.purpose) {
    case "sweep":
      return { kind: "sweep_batch", ...named, items: batch.sweeps };
    case "revocation":
      return { kind: "revocation_batch", ...named, items: batch.revocations };
    case "deploy_delegate":
      return { kind: "delegate_deployment", ...named, items: 0 };
    case "gap_fill":
      return { kind: "nonce_fill", ...named, items: 0 };
    case "withdrawal":
      // A drain is a withdrawal that empties the gas wallet to the address the operator named.
      return { kind: batch.drainTo === null ? "withdrawal" : "drain", ...named, items: 0 };
  }
}

/** What each of these gas entries' transactions paid for, by transaction hash (one read for a page). */
export async function readPaidFor(db: Db, txHashes: readonly string[]): Promise<Map<string, LedgerPaidFor>> {
  if (txHashes.length === 0) return new Map();
  const transactions = await db.chainTransaction.findMany({
    where: { hash: { in: [...txHashes] } },
    select: {
      hash: true,
      batch: { select: { id: true, purpose: true, drainTo: true, hotWallet: { select: { address: true } }, _count: { select: { sweeps: true, revocations: true } } } },
    },
  });
  return new Map(
    transactions.flatMap(({ hash, batch }) =>
      batch ? [[hash, paidFor({ id: batch.id, purpose: batch.purpose, drainTo: batch.drainTo, hotWallet: batch.hotWallet?.address ?? null, ...batch._count })] as const] : [],
    ),
  );
}
