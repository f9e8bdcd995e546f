import { dataLength, dataSlice, getAddress, toBeHex, toBigInt } from "ethers";
import { sweepDelegateInterface } from "./sweep-delegate-abi";
import { sweepFailureReason, type SweepFailureReason } from "./sweep-errors";

/** The part of a log the decoder reads (an ethers Log or a raw RPC log fits). */
export interface LogLike {
  address: string;
  topics: readonly string[];
  data: string;
}

interface OutcomeBase {
  /** deposit address of the item */
  account: string;
  /** gas the item used inside the batch (the call to the deposit address and all it did) */
  gasUsed: bigint;
}
export interface SweptOutcome extends OutcomeBase {
  swept: true;
  /** smallest units sent to the hot wallet */
  amount: bigint;
}
export interface FailedOutcome extends OutcomeBase {
  swept: false;
  reason: SweepFailureReason;
  /** 4-byte selector the item reverted with, 0x00000000 when none */
  selector: string;
}
export type SweepOutcome = SweptOutcome | FailedOutcome;

const sweptTopic = sweepDelegateInterface.getEvent("Swept")!.topicHash;
const failedTopic = sweepDelegateInterface.getEvent("SweepFailed")!.topicHash;
const ADDRESS_MASK = (1n << 160n) - 1n;

/**
 * Outcome of each item of a sweepBatch transaction from its receipt's logs: the delegate emits
 * exactly one event per item, in item order, so outcome i is item i's. Logs of other contracts
 * (such as the tokens' Transfer events) are skipped.
 */
export function decodeSweepOutcomes(logs: readonly LogLike[], delegate: string): SweepOutcome[] {
  const outcomes: SweepOutcome[] = [];
  // Compared in lower case: a checksum costs a keccak, and a batch's receipt has two logs per item.
  const emitter = getAddress(delegate).toLowerCase();
  for (const log of logs) {
    if (log.address.toLowerCase() !== emitter) continue;
    const topic = log.topics[0]?.toLowerCase();
    if (topic !== sweptTopic && topic !== failedTopic) continue;
    // Both events carry two words: accountAndGas, then the amount or the left-aligned selector.
    if (dataLength(log.data) !== 64) throw new Error(`malformed sweep event data: ${log.data}`);
    const accountAndGas = toBigInt(dataSlice(log.data, 0, 32));
    const base = {
      account: getAddress(toBeHex(accountAndGas & ADDRESS_MASK, 20)),
      gasUsed: accountAndGas >> 160n,
    };
    if (topic === sweptTopic) {
      outcomes.push({ ...base, swept: true, amount: toBigInt(dataSlice(log.data, 32, 64)) });
    } else {
      const selector = dataSlice(log.data, 32, 36);
      outcomes.push({ ...base, swept: false, reason: sweepFailureReason(selector), selector });
    }
  }
  return outcomes;
}
