import { gasPriceVerdict, type FeeCeiling } from "@sweep/fees";
import type { BatchToSend } from "../batch-types";
import type { FeeMarket } from "../fees";

/** The reason queued work shows while the base fee keeps its batch above its fee ceiling (as the batcher's hold sets it). */
export const WAITING_FOR_GAS_PRICE = "waiting_for_gas_price";

/**
 * Items sent back for the gas price are due again after this pause: the batcher's round then reads
 * the base fee and holds them itself, and a batcher that read a lower fee than the sender (another
 * endpoint, a block apart) does not claim and return them in a tight loop.
 */
export const GAS_PRICE_HOLD_PAUSE_MS = 3_000;

/** An open batch without items (a deployment, a withdrawal, a drain) waits at least this long before its message is delivered again. */
export const OPEN_BATCH_HOLD_RETRY_MS = 5_000;

/** What the sender does with a new transaction of the batch at the fee market it read. */
export type NewTransactionVerdict = "send" | "return_to_queue" | "wait_open";

/**
 * The batcher's hold rule (@sweep/fees' gasPriceVerdict), applied again at signing: a spike
 * since the claim would otherwise send a transaction at a ceiling below the base fee, which the
 * node refuses or keeps unminable. Held sweeps and revocations go back to the queue, not as an
 * attempt, where the batcher's hold takes over; a batch without items stays open and is tried again.
 */
export function newTransactionVerdict(purpose: BatchToSend["purpose"], ceiling: FeeCeiling, market: FeeMarket): NewTransactionVerdict {
  if (gasPriceVerdict(ceiling, market.baseFee, market.tip) !== "hold") return "send";
  return purpose === "sweep" || purpose === "revocation" ? "return_to_queue" : "wait_open";
}
