import type { BroadcastVerdict, ChainClient } from "@sweep/rpc";
import { createLogger } from "@sweep/common";
import type { InFlightTransaction } from "../batch-types";
import type { GasWalletRow } from "../gas-wallet-signers";
import type { WatchActions } from "./watch-actions";
import type { WatchStore } from "./watch-store";
import { ChainWatcher, type WatcherOptions } from "./watcher";

/*
 * The watcher's decisions round by round, with a fake node, store and actions: what it asks the
 * node and what it has done. The real-node tests (test/transaction-watching.test.ts and others) see
 * the same decisions through anvil and the database.
 */

const start = Date.parse("2026-11-27T12:00:00Z");
const wallet: GasWalletRow = { id: "wallet", address: "0x00000000000000000000000000000000000000aa", keyCustody: "sealed", encryptedKey: null, kekId: null, keyLabel: null };
const options = { replaceAfterMs: 60_000, bumpsFees: true, dropAfterMs: 300_000, gapGraceMs: 30_000, confirmations: 3 };

/** A stored transaction of the wallet, named `n<nonce>r<replacement>` (its hash and id). */
function stored(nonce: number, replacement = 0, over: Partial<InFlightTransaction> = {}): InFlightTransaction {
  const name = `n${nonce}r${replacement}`;
  return {
    id: name,
    chainId: 97,
    gasWalletId: wallet.id,
    nonce: BigInt(nonce),
    replacement,
    hash: name,
    rawTx: `raw-${name}`,
    status: "broadcast",
    fees: { maxFeePerGas: 10n, maxPriorityFeePerGas: 1n },
    createdAt: new Date(start - 1_000),
    broadcastAt: new Date(start - 1_000),
    batch: { id: `batch-${nonce}`, purpose: "sweep", hotWalletId: "hot", partnerId: "partner", delegate: null },
    ...over,
  };
}

/** What the node answers in a round, and what the round's actions come to. */
interface Round {
  /** ms since the first round */
  at?: number;
  head?: number;
  /** the wallet's nonce count at the confirmation depth, at the latest block, and with the pool */
  counts?: { atDepth: number; latest: number; pending?: number };
  /** hash → the block it was mined in */
  mined?: Record<string, number>;
  /** hashes the node's pool holds */
  pool?: string[];
  /** the node's answer to a transaction sent again */
  verdict?: "accepted" | BroadcastVerdict;
  /** false: a replacement would cross the fee ceiling */
  replaceable?: boolean;
  /** what the round asks of the node (`pool? <hash>`) and does, in order */
  expect: string[];
}

type Case = [situation: string, rows: InFlightTransaction[], rounds: Round[]];

const stuck = { broadcastAt: new Date(start - 60_000) };

async function watch(rows: InFlightTransaction[], rounds: Round[]): Promise<string[][]> {
  let node: Required<Omit<Round, "at" | "expect">> = { head: 100, counts: { atDepth: 5, latest: 5 }, mined: {}, pool: [], verdict: "accepted", replaceable: true };
  const done: string[] = [];
  const client = {
    chainId: 97,
    chain: { chainId: 97, confirmations: options.confirmations },
    finalBlock: async (head: number) => head - options.confirmations + 1,
    headNumber: async () => node.head,
    nonceAt: async (_address: string, block: "latest" | "pending" | number) =>
      BigInt(block === "pending" ? (node.counts.pending ?? node.counts.latest) : block === "latest" ? node.counts.latest : node.counts.atDepth),
    receipts: async (hashes: readonly string[]) => hashes.map((hash) => (node.mined[hash] === undefined ? null : { hash, blockNumber: node.mined[hash] })),
    isKnown: async (hash: string) => {
      done.push(`pool? ${hash}`);
      return node.pool.includes(hash);
    },
  } as unknown as ChainClient;
  const store: WatchStore = {
    presence: async () => ({ inFlight: rows.length > 0, settled: false, reorged: false, givenUp: false }),
    inFlightTransactions: async () => rows,
    gasWalletsById: async () => [wallet],
    confirmedNoncesFrom: async () => [],
  };
  const actions: WatchActions = {
    rebroadcast: async (transaction) => (done.push(`rebroadcast ${transaction.hash}`), node.verdict),
    settle: async (mined) => void done.push(`settle ${mined.hash}`),
    abandonTaken: async (at) => void done.push(`abandon ${at.nonce}`),
    replace: async (_at, current) => (done.push(`replace ${current.hash}`), node.replaceable),
    keepAtCeiling: async (current) => void done.push(`keep ${current.hash}`),
    dropAndFill: async (at, reason) => void done.push(`drop and fill ${at.nonce} (${reason})`),
    fillGap: async (at) => (done.push(`fill gap ${at.nonce}`), true),
  };
  const nothing = { runOnce: async () => false };
  const watcherOptions = { ...options, client, logger: createLogger("watcher-test", "error"), intervalMs: 1_000, headPollMs: 100 } as unknown as WatcherOptions;
  const watcher = new ChainWatcher(watcherOptions, { store, actions, settledReorgs: nothing, abandoned: nothing });
  const seen: string[][] = [];
  for (const { at = 0, expect: _expected, ...answers } of rounds) {
    node = { ...node, ...answers };
    jest.setSystemTime(start + at);
    done.length = 0;
    await watcher.runOnce();
    seen.push([...done]);
  }
  return seen;
}

beforeAll(() => jest.useFakeTimers({ doNotFake: ["nextTick", "setImmediate", "queueMicrotask"] }));
afterAll(() => jest.useRealTimers());

describe("the watcher's decisions, round by round", () => {
  it.each<Case>([
    // mined: a receipt of ours decides
    ["mined at the confirmation depth: settled", [stored(5)], [{ mined: { n5r0: 98 }, counts: { atDepth: 6, latest: 6 }, expect: ["settle n5r0"] }]],
    ["mined, not yet deep enough: left alone", [stored(5)], [{ mined: { n5r0: 99 }, counts: { atDepth: 5, latest: 6 }, expect: [] }]],
    ["an earlier version mined: the nonce settled with it", [stored(5), stored(5, 1)], [{ mined: { n5r0: 90 }, counts: { atDepth: 6, latest: 6 }, expect: ["settle n5r0"] }]],
    // counted past at depth with no receipt of ours: given up once rounds at later heads agree
    [
      "counted past, no receipt: given up after three rounds spanning 12 blocks",
      [stored(5)],
      [
        { counts: { atDepth: 6, latest: 6 }, expect: [] },
        { head: 106, expect: [] },
        { head: 106, expect: [] },
        { head: 112, expect: ["abandon 5"] },
      ],
    ],
    ["counted past, then a receipt after all: settled", [stored(5)], [{ counts: { atDepth: 6, latest: 6 }, expect: [] }, { head: 103, mined: { n5r0: 101 }, expect: ["settle n5r0"] }]],
    // open: the pool asked only of a broadcast transaction
    ["in the pool, not stuck: left alone", [stored(5)], [{ pool: ["n5r0"], expect: ["pool? n5r0"] }]],
    ["in the pool and stuck as the next nonce: replaced", [stored(5, 0, stuck)], [{ pool: ["n5r0"], expect: ["pool? n5r0", "replace n5r0"] }]],
    ["in the pool, stuck behind another nonce: left alone", [stored(6, 0, stuck)], [{ pool: ["n6r0"], counts: { atDepth: 5, latest: 5, pending: 6 }, expect: ["pool? n6r0"] }]],
    [
      "stuck, no replacement under the ceiling: kept and sent again, once per replacement interval",
      [stored(5, 0, stuck)],
      [
        { pool: ["n5r0"], replaceable: false, expect: ["pool? n5r0", "replace n5r0", "keep n5r0"] },
        { at: 30_000, expect: ["pool? n5r0", "replace n5r0"] },
        { at: 60_000, expect: ["pool? n5r0", "replace n5r0", "keep n5r0"] },
      ],
    ],
    ["not in the pool: sent again", [stored(5)], [{ expect: ["pool? n5r0", "rebroadcast n5r0"] }]],
    ["signed, never broadcast: sent without asking the pool", [stored(5, 0, { status: "signed", broadcastAt: null })], [{ expect: ["rebroadcast n5r0"] }]],
    ["sent again, no node answered: left for the next round", [stored(5, 0, stuck)], [{ verdict: "unavailable", expect: ["pool? n5r0", "rebroadcast n5r0"] }]],
    // refused: an earlier version of the nonce may still hold it
    ["refused, an earlier version in the pool: left alone", [stored(5), stored(5, 1)], [{ pool: ["n5r0"], verdict: "refused", expect: ["pool? n5r1", "rebroadcast n5r1", "pool? n5r0"] }]],
    ["refused and stuck: replaced", [stored(5, 0, stuck)], [{ verdict: "refused", expect: ["pool? n5r0", "rebroadcast n5r0", "replace n5r0"] }]],
    [
      "refused for the drop time: given up and its nonce filled",
      [stored(5)],
      [
        { verdict: "refused", expect: ["pool? n5r0", "rebroadcast n5r0"] },
        { at: 299_000, expect: ["pool? n5r0", "rebroadcast n5r0", "replace n5r0"] },
        { at: 300_000, expect: ["pool? n5r0", "rebroadcast n5r0", "drop and fill 5 (nonce_conflict)"] },
      ],
    ],
    [
      "the gas wallet cannot pay for the drop time: given up as such, never replaced",
      [stored(5)],
      [
        { verdict: "insufficient_funds", expect: ["pool? n5r0", "rebroadcast n5r0"] },
        { at: 300_000, expect: ["pool? n5r0", "rebroadcast n5r0", "drop and fill 5 (insufficient_gas_balance)"] },
      ],
    ],
    [
      "refused, then taken again: the drop time starts over",
      [stored(5)],
      [
        { verdict: "refused", expect: ["pool? n5r0", "rebroadcast n5r0"] },
        { at: 200_000, verdict: "accepted", expect: ["pool? n5r0", "rebroadcast n5r0"] },
        { at: 300_000, verdict: "refused", expect: ["pool? n5r0", "rebroadcast n5r0", "replace n5r0"] },
      ],
    ],
    // gaps: a nonce below ours that nothing fills, once the grace period is over
    [
      "a gap below the in-flight nonce: filled after the grace period",
      [stored(6, 0, { status: "signed", broadcastAt: null })],
      [
        { verdict: "nonce_used", expect: ["rebroadcast n6r0"] },
        { at: 30_000, expect: ["rebroadcast n6r0", "fill gap 5"] },
      ],
    ],
    ["no gap while the pool holds an executable transaction", [stored(6, 0, { status: "signed", broadcastAt: null })], [{ counts: { atDepth: 5, latest: 5, pending: 6 }, expect: ["rebroadcast n6r0"] }, { at: 30_000, expect: ["rebroadcast n6r0"] }]],
  ])("%s", async (_situation, rows, rounds) => {
    expect(await watch(rows, rounds)).toEqual(rounds.map((round) => round.expect));
  });
});

describe("whether a round had anything to watch: an idle watcher rests until woken", () => {
  const part = (found: boolean | Error) => ({
    runOnce: async () => {
      if (found instanceof Error) throw found;
      return found;
    },
  });

  it.each<[situation: string, rows: InFlightTransaction[], settledOrReorged: boolean | Error, givenUp: boolean | Error, outcome: "idle" | undefined]>([
    ["nothing in flight, settled or given up within the window, nor reorged: idle", [], false, false, "idle"],
    ["a transaction settled within the window (or reorged): watched every block", [], true, false, undefined],
    ["a given-up transaction within the window: watched every block", [], false, true, undefined],
    ["the settled transactions not read this round: watched every block", [], new Error("no database"), false, undefined],
    ["the given-up transactions not read this round: watched every block", [], false, new Error("no node"), undefined],
    ["a transaction in flight: watched every block", [stored(5)], false, false, undefined],
  ])("%s", async (_situation, rows, settledOrReorged, givenUp, outcome) => {
    const client = {
      chainId: 97,
      chain: { chainId: 97, confirmations: options.confirmations },
      finalBlock: async (head: number) => head - options.confirmations + 1,
      headNumber: async () => 100,
      nonceAt: async () => 6n,
      receipts: async (hashes: readonly string[]) => hashes.map((hash) => ({ hash, blockNumber: 90 })),
    } as unknown as ChainClient;
    const store: WatchStore = {
      presence: async () => ({ inFlight: rows.length > 0, settled: true, reorged: true, givenUp: true }),
      inFlightTransactions: async () => rows,
      gasWalletsById: async () => [wallet],
      confirmedNoncesFrom: async () => [],
    };
    const actions = { settle: async () => undefined } as unknown as WatchActions;
    const watcherOptions = { ...options, client, logger: createLogger("watcher-test", "error"), intervalMs: 1_000, headPollMs: 100 } as unknown as WatcherOptions;
    const watcher = new ChainWatcher(watcherOptions, { store, actions, settledReorgs: part(settledOrReorged), abandoned: part(givenUp) });
    expect(await watcher.runOnce()).toBe(outcome);
  });
});
