import type { AttemptFailureReason } from "@sweep/common";
import { BATCH_GAS_TOO_LOW_SELECTOR } from "@sweep/contracts";

/** A JSON-RPC call that failed: no answer in time, no connection, or an error answer. */
export class ChainCallError extends Error {
  constructor(
    readonly method: string,
    override readonly cause: unknown,
  ) {
    super(`${method} failed: ${nodeMessage(cause)}`);
    this.name = "ChainCallError";
  }
}

interface ErrorShape {
  code?: unknown;
  message?: unknown;
  shortMessage?: unknown;
  data?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
  info?: { error?: { code?: unknown; message?: unknown; data?: unknown } };
}

function shape(err: unknown): ErrorShape {
  return typeof err === "object" && err !== null ? (err as ErrorShape) : {};
}

/** The node's own words for an error (ethers keeps them under `error` or `info.error`), for logs and pattern checks only. */
export function nodeMessage(err: unknown): string {
  const e = shape(err instanceof ChainCallError ? err.cause : err);
  for (const candidate of [e.error?.message, e.info?.error?.message, e.shortMessage, e.message]) {
    if (typeof candidate === "string" && candidate !== "") return candidate;
  }
  return String(err);
}

/** The node answered with a JSON-RPC error (as opposed to a connection failure or a timeout). */
function isNodeAnswer(err: unknown): boolean {
  const e = shape(err);
  if (["NONCE_EXPIRED", "REPLACEMENT_UNDERPRICED", "INSUFFICIENT_FUNDS", "CALL_EXCEPTION"].includes(String(e.code))) return true;
  return typeof e.error?.code === "number" || typeof e.info?.error?.code === "number";
}

/**
 * JSON-RPC error codes nodes and providers answer for a method they do not offer: -32601 "method
 * not found" (geth, anvil), -32004 "method not supported" (EIP-1474; hardhat, some providers),
 * -32600 "invalid request" (providers that filter methods before the node sees them).
 */
const UNSUPPORTED_METHOD_CODES = [-32601, -32600, -32004];

/** The node does not offer the method. */
export function isUnsupportedMethod(err: unknown): boolean {
  const cause = err instanceof ChainCallError ? err.cause : err;
  const e = shape(cause);
  if (e.code === "UNSUPPORTED_OPERATION") return true;
  // Besu answers -32004 for an account that cannot pay too: the method is there.
  if (UPFRONT_COST.test(nodeMessage(cause))) return false;
  if ([e.error?.code, e.info?.error?.code].some((code) => UNSUPPORTED_METHOD_CODES.includes(code as number))) return true;
  return /method not found|does not exist\/is not available|not supported|unsupported method|method not available|not whitelisted/i.test(nodeMessage(cause));
}

/**
 * The node no longer keeps the state of the block asked for: a full (not archive) node prunes
 * state older than about 128 blocks (geth "missing trie node … state is not available", Erigon and
 * Nethermind likewise, reth "state at block … is pruned").
 */
export function isStateUnavailable(err: unknown): boolean {
  return /missing trie node|state is not available|state not available|historical state|is pruned|pruned state/i.test(nodeMessage(err instanceof ChainCallError ? err.cause : err));
}

/**
 * Why eth_estimateGas refused a transaction: the delegate's BatchGasTooLow or the node's "gas
 * required exceeds allowance" mean no block can hold it; "insufficient funds" that the gas wallet
 * cannot pay; another revert means the call itself is wrong (internal); anything else is the node
 * failing us.
 */
export function estimateFailureReason(err: unknown): AttemptFailureReason {
  const cause = err instanceof ChainCallError ? err.cause : err;
  const e = shape(cause);
  const data = [e.data, e.error?.data, e.info?.error?.data].find((d) => typeof d === "string") as string | undefined;
  if (data?.toLowerCase().startsWith(BATCH_GAS_TOO_LOW_SELECTOR)) return "gas_limit_exceeded";
  const message = nodeMessage(cause);
  if (/gas required exceeds|exceeds block gas limit|intrinsic gas too high|out of gas/i.test(message)) return "gas_limit_exceeded";
  // A provider that checks its node's fee cap before the pool does: the batch is too big for the cap at this fee.
  if (FEE_CAP_EXCEEDED.test(message)) return "gas_limit_exceeded";
  if (e.code === "INSUFFICIENT_FUNDS" || INSUFFICIENT_FUNDS.test(message)) return "insufficient_gas_balance";
  if (e.code === "CALL_EXCEPTION") return "internal";
  return "chain_unavailable";
}

/**
 * What an eth_sendRawTransaction error says about a transaction we stored:
 * - known: the node has it already ("already known", anvil's "already imported");
 * - nonce_used: its nonce was mined (ours or another transaction: the receipts tell);
 * - underpriced: a transaction of ours with that nonce and higher or equal fees is in the pool;
 * - insufficient_funds: the gas wallet cannot pay for it now;
 * - fee_cap_exceeded: its gas limit × max fee is over the node's cap (geth, Erigon and reth refuse
 *   above 1 coin by default): only a smaller transaction goes through;
 * - authority_reserved: an account whose authorization it carries has a transaction of its own in
 *   the node's pool (geth): it goes through without that authorization;
 * - refused: the node answered with another error;
 * - unavailable: no answer (connection, timeout).
 * The first three count as sent.
 */
export type BroadcastVerdict = "known" | "nonce_used" | "underpriced" | "insufficient_funds" | "fee_cap_exceeded" | "authority_reserved" | "refused" | "unavailable";

// What pools of the node implementations answer, by verdict (geth, Erigon, Nethermind, Besu, reth, anvil, hardhat).
const KNOWN = /already known|already imported|known transaction|already in (the )?(mem)?pool|alreadyknown/i;
const NONCE_USED = /nonce too low|nonce has already been used|oldnonce/i;
const UNDERPRICED = /replacement transaction underpriced|replacement fee too low|could not replace existing tx|replacementnotallowed/i;
/** Besu: "Upfront cost exceeds account balance" (-32004), the gas wallet cannot pay gas limit × max fee plus value. */
const UPFRONT_COST = /upfront cost exceeds account balance/i;
const INSUFFICIENT_FUNDS = /insufficient ?funds|upfront cost exceeds account balance/i;
/** geth, Erigon, reth: "tx fee (X ether) exceeds the configured cap (1.00 ether)"; Besu: "Transaction fee cap exceeded". */
const FEE_CAP_EXCEEDED = /exceeds the configured cap|fee cap exceeded/i;
/** geth: an authority of the transaction has a transaction of its own pending or queued in the pool. */
const AUTHORITY_RESERVED = /authority already reserved/i;
/** The pool refuses it now but may take it later: fees below its floor. */
const REFUSED_FOR_NOW = /transaction underpriced|gas price below minimum|feetoolow/i;

export function broadcastVerdict(err: unknown): BroadcastVerdict {
  const cause = err instanceof ChainCallError ? err.cause : err;
  const code = String(shape(cause).code);
  const message = nodeMessage(cause);
  if (KNOWN.test(message)) return "known";
  if (code === "NONCE_EXPIRED" || NONCE_USED.test(message)) return "nonce_used";
  if (code === "REPLACEMENT_UNDERPRICED" || UNDERPRICED.test(message)) return "underpriced";
  if (code === "INSUFFICIENT_FUNDS" || INSUFFICIENT_FUNDS.test(message)) return "insufficient_funds";
  if (FEE_CAP_EXCEEDED.test(message)) return "fee_cap_exceeded";
  if (AUTHORITY_RESERVED.test(message)) return "authority_reserved";
  if (REFUSED_FOR_NOW.test(message)) return "refused";
  return isNodeAnswer(cause) ? "refused" : "unavailable";
}

export type SentVerdict = "accepted" | "known" | "nonce_used" | "underpriced";

export function countsAsSent(verdict: BroadcastVerdict | "accepted"): verdict is SentVerdict {
  return verdict === "accepted" || verdict === "known" || verdict === "nonce_used" || verdict === "underpriced";
}
