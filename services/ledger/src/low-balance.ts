import { toBigInt, type Tx } from "@sweep/db";
import { recordEvent } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";
import { getAddress } from "ethers";

export interface LowBalanceAlertState {
  threshold: bigint;
  low: boolean;
}

/**
 * What a balance read does to a chain's low-balance alert: `fire` when it fell below the
 * threshold of an armed alert (one event per fall), `rearm` when it is at or above the threshold
 * of an alert that fired, nothing otherwise (no alert, or no change of side).
 */
export function lowBalanceChange(balance: bigint, alert: LowBalanceAlertState | null): "fire" | "rearm" | null {
  if (alert === null) return null;
  if (balance < alert.threshold) return alert.low ? null : "fire";
  return alert.low ? "rearm" : null;
}

export interface BalanceRead {
  partnerId: string;
  chainId: number;
  gasWallet: string;
  balance: bigint;
}

/**
 * Applies a balance read to the partner's alert of the chain in the caller's transaction: firing
 * sets low and records balance.low, re-arming clears low. The flag's update is guarded by its old
 * value, so of two transactions seeing the same fall only one records the event. Returns whether
 * an event was recorded.
 */
export async function applyLowBalanceAlert(tx: Tx, names: QueueNames, read: BalanceRead): Promise<boolean> {
  const { partnerId, chainId, balance } = read;
  const alert = await tx.lowBalanceAlert.findUnique({ where: { partnerId_chainId: { partnerId, chainId } } });
  if (alert === null) return false;
  const threshold = toBigInt(alert.threshold);
  const change = lowBalanceChange(balance, { threshold, low: alert.low });
  if (change === null) return false;

  const low = change === "fire";
  const updated = await tx.lowBalanceAlert.updateMany({ where: { partnerId, chainId, low: !low }, data: { low } });
  if (updated.count === 0 || !low) return false;
  await recordEvent(tx, names, {
    partnerId,
    type: "balance.low",
    // chain_id is a ChainID (an integer), the amounts strings, as the spec's BalanceLow has them.
    payload: { chain_id: chainId, gas_wallet: getAddress(read.gasWallet), balance: balance.toString(), threshold: threshold.toString() },
    dedupeKey: null,
  });
  return true;
}
