import type { BatchToSend } from "./batch-store";

/**
 * What a batch's transaction carries, as log fields: the sweeps (less those the simulation
 * dropped), the revocations, or the hot wallet whose delegate it deploys. Logged once per
 * transaction, so that grepping a sweep's id finds the transaction that carried it.
 */
export function carriedIds(batch: BatchToSend, dropped: readonly string[]): { sweepIds: string[] } | { revocationIds: string[] } | { hotWalletId: string } | Record<string, never> {
  switch (batch.purpose) {
    case "sweep": {
      const left = new Set(dropped);
      return { sweepIds: batch.items.map((item) => item.sweepId).filter((id) => !left.has(id)) };
    }
    case "revocation":
      return { revocationIds: batch.items.map((item) => item.revocationId) };
    case "deploy_delegate":
      return { hotWalletId: batch.hotWalletId };
    case "withdrawal":
      return {};
  }
}
