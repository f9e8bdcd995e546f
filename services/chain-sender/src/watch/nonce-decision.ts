import { countsAsSent, isFinal, type BroadcastVerdict } from "@sweep/rpc";
import { isStuck, takenForSure, type AbandonRule, type TakenRun } from "./watch-rules";

/** What the watcher has seen of one nonce of a gas wallet this round. */
export interface NonceObservations {
  nonce: bigint;
  /** the chain's nonce count at the latest block: the nonce it mines next */
  latest: bigint;
  /** the chain's nonce count at the round's final block */
  atDepth: bigint;
  /** the block of the nonce's transaction of ours that has a receipt (null: none), the round's head, and its final block (ChainClient.finalBlock) */
  minedBlock: number | null;
  head: number;
  final: number;
  /** the rounds in a row, this one included, that saw the nonce counted past at depth with no receipt of ours */
  takenRun?: TakenRun;
  /** the nonce's newest stored transaction */
  current: { status: "signed" | "broadcast"; sentAt: Date; gapFill: boolean };
  now: number;
  /** since when the node refuses every transaction of the nonce (now, when it did not so far) */
  refusedSince: number;
  /** the node's pool holds the current transaction (asked of a broadcast one) */
  inPool?: boolean;
  /** the node's answer to the current transaction sent again */
  rebroadcast?: "accepted" | BroadcastVerdict;
  /** the pool holds an earlier transaction of the nonce (asked once the node refused the current one) */
  earlierInPool?: boolean;
}

export interface NonceRules {
  /**
   * whether a stuck transaction is replaced at higher fees: not on a chain without a public mempool
   * (Arbitrum's sequencer takes transactions as they come, and more fees buy no earlier place)
   */
  bumps: boolean;
  replaceAfterMs: number;
  dropAfterMs: number;
  /** the agreement that gives up a nonce counted past with no receipt of ours */
  abandon: AbandonRule;
}

/** Why nothing is done with the nonce this round. */
export type WaitReason =
  | "not_final"
  | "confirming_taken"
  | "in_pool"
  | "sent"
  | "node_unavailable"
  | "earlier_in_pool"
  | "not_next"
  | "refused";

/**
 * What to do with a nonce, or which observation the decision needs next (`ask_pool`, `rebroadcast`,
 * `ask_earlier_pool`: each costs a call to the node, so it is made only when it decides something;
 * the watcher records the answer and decides again).
 */
export type NonceDecision =
  | { do: "settle" }
  | { do: "wait"; why: WaitReason }
  | { do: "abandon" }
  | { do: "replace" }
  | { do: "fill"; reason: "insufficient_gas_balance" | "nonce_conflict" }
  | { do: "rebroadcast" }
  | { do: "ask_pool" }
  | { do: "ask_earlier_pool" };

/**
 * The watcher's decision for one nonce. A receipt of ours (from any node) settles it at the
 * confirmation depth; the chain counting past it with no receipt of ours gives it up, but only once
 * rounds at later heads agreed (takenForSure): a missing receipt may be a lagging backend's. Otherwise ours is still to mine: left alone in the pool, replaced
 * with higher fees when stuck as the next nonce (where the chain's rules bump fees), sent again when the node does not hold it. A node
 * that keeps refusing the next nonce (no earlier version of it in the pool) has it filled with a
 * self-transfer after `dropAfterMs` (never a gap filler: another would take its place), or, refused
 * for its fees and stuck, replaced.
 */
export function decideNonce(o: NonceObservations, rules: NonceRules): NonceDecision {
  if (o.minedBlock !== null) return isFinal(o.minedBlock, o.final) ? { do: "settle" } : { do: "wait", why: "not_final" };
  if (seenTaken(o)) return takenForSure(o.takenRun, rules.abandon) ? { do: "abandon" } : { do: "wait", why: "confirming_taken" };

  const next = o.nonce === o.latest;
  const stuck = next && isStuck(o.current.sentAt, new Date(o.now), rules.replaceAfterMs);
  if (o.current.status === "broadcast" && o.rebroadcast === undefined) {
    if (o.inPool === undefined) return { do: "ask_pool" };
    if (o.inPool) return stuck && rules.bumps ? { do: "replace" } : { do: "wait", why: "in_pool" };
  }
  if (o.rebroadcast === undefined) return { do: "rebroadcast" };
  if (countsAsSent(o.rebroadcast)) return { do: "wait", why: "sent" };
  if (o.rebroadcast === "unavailable") return { do: "wait", why: "node_unavailable" };
  // An earlier version of this nonce still in the pool holds it: nothing is blocked (say, a replacement the gas wallet cannot pay for).
  if (o.earlierInPool === undefined) return { do: "ask_earlier_pool" };
  if (o.earlierInPool) return { do: "wait", why: "earlier_in_pool" };
  // Only the next nonce to mine blocks the others.
  if (!next) return { do: "wait", why: "not_next" };
  if (!o.current.gapFill && o.now - o.refusedSince >= rules.dropAfterMs) {
    return { do: "fill", reason: o.rebroadcast === "insufficient_funds" ? "insufficient_gas_balance" : "nonce_conflict" };
  }
  // Higher fees may be what the node wants (a fee cap below the base fee); they cannot help a gas wallet that cannot pay.
  if (o.rebroadcast === "refused" && stuck && rules.bumps) return { do: "replace" };
  return { do: "wait", why: "refused" };
}

/** This round saw the nonce counted past at the confirmation depth with no receipt of any transaction of ours of it. */
export function seenTaken(o: Pick<NonceObservations, "nonce" | "atDepth" | "minedBlock">): boolean {
  return o.minedBlock === null && o.atDepth > o.nonce;
}
