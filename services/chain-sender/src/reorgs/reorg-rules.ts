/**
 * Reorgs deeper than the confirmation depth, free of the database and the node: which settled
 * transactions left the canonical chain, and what becomes of each.
 */
import { isFinal } from "@sweep/rpc";
import { takenForSure, type AbandonRule, type TakenRun } from "../watch/watch-rules";

/**
 * A settled transaction's block is re-checked against the canonical chain while it is within this
 * many blocks of the head: beyond the finality of the chains served (Ethereum finalizes 64 to 95
 * blocks back; BSC within a few blocks), when a reorg can no longer take it.
 */
export const SETTLED_WATCH_BLOCKS = 128;

/** The lowest block whose settled transactions are still re-checked at this head. */
export function settledWatchFrom(head: number): number {
  return Math.max(0, head - SETTLED_WATCH_BLOCKS + 1);
}

/** A settled transaction as stored: the block its receipt named. */
export interface SettledInBlock {
  blockNumber: number;
  blockHash: string;
}

/** Where a settled transaction is now. */
export type SettledPlace = "kept" | "left" | "unknown";

/**
 * From the canonical chain's block at its number (read by number: a node behind it answers null,
 * never another block, and no receipt a lagging backend lacks is taken for a reorg): `kept` while
 * that block is the one it was settled in, `left` when another block has its number, `unknown`
 * when no node answered with the block (that decides nothing).
 */
export function settledPlace(settled: SettledInBlock, canonicalHash: string | null): SettledPlace {
  if (canonicalHash === null) return "unknown";
  return canonicalHash.toLowerCase() === settled.blockHash.toLowerCase() ? "kept" : "left";
}

/** What to do next with a settled transaction whose block left the canonical chain. */
export type ReorgedStep = "restored" | "wait" | "resend" | "lost";

/**
 * Whether this round saw the nonce taken: no receipt while the chain counts past the nonce at the
 * confirmation depth (the watcher's nextTakenRun gathers these into a run).
 */
export function reorgedTaken(input: { nonce: bigint; receipt: { blockNumber: number } | null; countAtDepth: bigint }): boolean {
  return input.receipt === null && input.countAtDepth > input.nonce;
}

/**
 * Mined again (in any block) and final at the head: `restored`, booked once as before. Mined
 * again, not yet final: `wait`. No receipt while another transaction holds its nonce at the
 * confirmation depth: `lost`, the operator's case, but only once rounds at later heads agreed as the
 * watcher's abandonment asks (takenForSure): the receipt is read on its own and a lagging backend
 * answers null for a transaction mined again. Until then `wait`. Otherwise its stored signed
 * transaction is still valid at its nonce: `resend` it, which puts the chain back where the ledger
 * has it (harmless when a lagging node did not see it mined).
 */
export function reorgedStep(input: {
  nonce: bigint;
  receipt: { blockNumber: number } | null;
  /** the round's final block (ChainClient.finalBlock) */
  final: number;
  countAtDepth: bigint;
  takenRun: TakenRun | undefined;
  abandon: AbandonRule;
}): ReorgedStep {
  if (input.receipt) return isFinal(input.receipt.blockNumber, input.final) ? "restored" : "wait";
  if (!reorgedTaken(input)) return "resend";
  return takenForSure(input.takenRun, input.abandon) ? "lost" : "wait";
}
