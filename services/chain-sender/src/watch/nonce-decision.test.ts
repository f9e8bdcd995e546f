import { decideNonce, type NonceDecision, type NonceObservations } from "./nonce-decision";

const rules = { bumps: true, replaceAfterMs: 60_000, dropAfterMs: 300_000, abandon: { rounds: 3, blocks: 12 } };
const now = Date.parse("2026-11-25T12:00:00Z");

/** Nonce 5, the next to mine, sent a moment ago, nothing mined: the head at block 100, final (3 confirmations deep) at 98. */
const base: NonceObservations = {
  nonce: 5n,
  latest: 5n,
  atDepth: 5n,
  minedBlock: null,
  head: 100,
  final: 98,
  current: { status: "broadcast", sentAt: new Date(now - 1_000), gapFill: false },
  now,
  refusedSince: now,
};
const stuck = { ...base.current, sentAt: new Date(now - 60_000) };
const refused = { inPool: false, rebroadcast: "refused", earlierInPool: false } as const;

describe("decideNonce", () => {
  it.each<[string, Partial<NonceObservations>, NonceDecision]>([
    // mined: a receipt of ours decides, from any node
    ["mined at the confirmation depth", { minedBlock: 98 }, { do: "settle" }],
    ["mined, not yet deep enough", { minedBlock: 99 }, { do: "wait", why: "not_final" }],
    ["mined, counted past at depth", { minedBlock: 90, atDepth: 6n }, { do: "settle" }],
    ["mined, read from a backend ahead of the round's head: not final yet", { minedBlock: 101, atDepth: 6n }, { do: "wait", why: "not_final" }],
    ["mined after rounds that saw no receipt: settled, whatever the run", { minedBlock: 95, atDepth: 6n, takenRun: { rounds: 5, firstHead: 80, lastHead: 100 } }, { do: "settle" }],
    // counted past with no receipt of ours: given up only once rounds at later heads agree
    ["counted past, first round: a lagging backend may have answered the receipt", { atDepth: 6n, takenRun: { rounds: 1, firstHead: 100, lastHead: 100 } }, { do: "wait", why: "confirming_taken" }],
    ["counted past, no run recorded", { atDepth: 6n }, { do: "wait", why: "confirming_taken" }],
    ["counted past in three rounds spanning 11 blocks: not yet", { atDepth: 6n, takenRun: { rounds: 3, firstHead: 89, lastHead: 100 } }, { do: "wait", why: "confirming_taken" }],
    ["counted past in two rounds spanning 20 blocks: not yet", { atDepth: 6n, takenRun: { rounds: 2, firstHead: 80, lastHead: 100 } }, { do: "wait", why: "confirming_taken" }],
    ["counted past in three rounds spanning 12 blocks: another transaction took it", { atDepth: 6n, takenRun: { rounds: 3, firstHead: 88, lastHead: 100 } }, { do: "abandon" }],
    ["a run without the count past at depth decides nothing (the nonce is open)", { takenRun: { rounds: 3, firstHead: 88, lastHead: 100 }, inPool: true }, { do: "wait", why: "in_pool" }],
    // open, broadcast before
    ["broadcast before: the pool is asked first", {}, { do: "ask_pool" }],
    ["in the pool, not stuck", { inPool: true }, { do: "wait", why: "in_pool" }],
    ["in the pool and stuck as the next nonce", { inPool: true, current: stuck }, { do: "replace" }],
    ["in the pool, stuck but behind another nonce", { inPool: true, current: stuck, latest: 4n }, { do: "wait", why: "in_pool" }],
    ["not in the pool", { inPool: false }, { do: "rebroadcast" }],
    ["signed, never broadcast: sent without asking the pool", { current: { ...base.current, status: "signed" } }, { do: "rebroadcast" }],
    // after the rebroadcast
    ["sent again and accepted", { inPool: false, rebroadcast: "accepted" }, { do: "wait", why: "sent" }],
    ["the node knew it", { inPool: false, rebroadcast: "known" }, { do: "wait", why: "sent" }],
    ["nonce already used (one of ours was mined)", { inPool: false, rebroadcast: "nonce_used" }, { do: "wait", why: "sent" }],
    ["replacement underpriced (one of ours holds the nonce)", { inPool: false, rebroadcast: "underpriced" }, { do: "wait", why: "sent" }],
    ["no node answered", { inPool: false, rebroadcast: "unavailable" }, { do: "wait", why: "node_unavailable" }],
    ["refused: the earlier versions are asked for", { inPool: false, rebroadcast: "refused" }, { do: "ask_earlier_pool" }],
    ["refused, an earlier version holds the nonce", { ...refused, earlierInPool: true }, { do: "wait", why: "earlier_in_pool" }],
    ["refused, not the next nonce", { ...refused, latest: 4n, current: stuck, refusedSince: now - 300_000 }, { do: "wait", why: "not_next" }],
    ["refused for the first time", refused, { do: "wait", why: "refused" }],
    ["refused and stuck: higher fees", { ...refused, current: stuck }, { do: "replace" }],
    ["refused for the drop time: given up and filled", { ...refused, refusedSince: now - 300_000 }, { do: "fill", reason: "nonce_conflict" }],
    ["the gas wallet cannot pay, stuck: no replacement", { ...refused, rebroadcast: "insufficient_funds", current: stuck }, { do: "wait", why: "refused" }],
    ["the gas wallet cannot pay for the drop time", { ...refused, rebroadcast: "insufficient_funds", refusedSince: now - 300_000 }, { do: "fill", reason: "insufficient_gas_balance" }],
    ["a gap filler refused for the drop time is never given up", { ...refused, current: { ...stuck, gapFill: true }, refusedSince: now - 300_000 }, { do: "replace" }],
    ["a gap filler the gas wallet cannot pay for waits", { ...refused, rebroadcast: "insufficient_funds", current: { ...stuck, gapFill: true }, refusedSince: now - 300_000 }, { do: "wait", why: "refused" }],
  ])("%s", (_situation, seen, decision) => {
    expect(decideNonce({ ...base, ...seen }, rules)).toEqual(decision);
  });

  // Arbitrum: no public mempool, no replacement; a refused nonce is still given up and filled after the drop time.
  it.each<[string, Partial<NonceObservations>, NonceDecision]>([
    ["in the pool and stuck as the next nonce: left alone", { inPool: true, current: stuck }, { do: "wait", why: "in_pool" }],
    ["refused and stuck: no higher fees", { ...refused, current: stuck }, { do: "wait", why: "refused" }],
    ["refused for the drop time: given up and filled", { ...refused, current: stuck, refusedSince: now - 300_000 }, { do: "fill", reason: "nonce_conflict" }],
    ["mined at the confirmation depth", { minedBlock: 98 }, { do: "settle" }],
  ])("on a chain that does not bump fees, %s", (_situation, seen, decision) => {
    expect(decideNonce({ ...base, ...seen }, { ...rules, bumps: false })).toEqual(decision);
  });
});
