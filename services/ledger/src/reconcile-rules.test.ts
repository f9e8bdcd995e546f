import { explainedChange, firstUnbooked, fullPassDue, needsReconciling, reconcileIntervalMs, reconcileUpTo, topupDedupeKey, topupNote, type ChainMovingEntry, type MinedCandidate } from "./reconcile-rules";

describe("reconcile rules", () => {
  it.each<[string, number | null, number | null, boolean, boolean]>([
    ["never reconciled on the chain", null, null, false, true],
    ["a transaction of ours confirmed past the reconciled block", 100, 101, false, true],
    ["nothing of ours since the reconciled block", 100, 100, false, false],
    ["no transaction of ours ever", 100, null, false, false],
    ["a full pass reads it anyway (a top-up we do not see)", 100, 90, true, true],
  ])("reads the balance: %s", (_name, reconciledBlock, lastMinedBlock, fullPass, expected) => {
    expect(needsReconciling({ reconciledBlock, lastMinedBlock }, fullPass)).toBe(expected);
  });

  it.each<[string, number | undefined, number, number]>([
    ["Ethereum: a round a block", undefined, 12_000, 12_000],
    ["BSC: a round a second", undefined, 450, 1_000],
    ["RECONCILE_INTERVAL_MS when set", 200, 12_000, 200],
  ])("the pause between rounds: %s", (_name, configured, blockTimeMs, expected) => {
    expect(reconcileIntervalMs(configured, blockTimeMs)).toBe(expected);
  });

  it.each<[string, number | undefined, number, boolean]>([
    ["the first round of a process", undefined, 0, true],
    ["within the pass's interval", 1_000, 600_999, false],
    ["once the interval has passed", 1_000, 601_000, true],
  ])("a full pass: %s", (_name, last, now, expected) => {
    expect(fullPassDue(last, now, 600_000)).toBe(expected);
  });

  const candidate = (nonce: bigint, status: MinedCandidate["status"], blockNumber: number | null, booked = false): MinedCandidate => ({ nonce, status, blockNumber, booked });

  it.each<[string, MinedCandidate[], ReturnType<typeof firstUnbooked>]>([
    ["nothing stored", [], null],
    ["all confirmed and booked", [candidate(0n, "confirmed", 5, true), candidate(1n, "confirmed", 7, true)], null],
    ["confirmed, not booked yet", [candidate(0n, "confirmed", 5, true), candidate(1n, "confirmed", 7)], { nonce: 1n, blockNumber: 7 }],
    ["mined but not confirmed by the watcher", [candidate(2n, "broadcast", null)], { nonce: 2n, blockNumber: null }],
    ["the lowest of several", [candidate(4n, "confirmed", 9), candidate(3n, "signed", null), candidate(1n, "confirmed", 6, true)], { nonce: 3n, blockNumber: null }],
    ["a nonce with a booked transaction among replacements still in flight", [candidate(0n, "broadcast", null), candidate(0n, "confirmed", 5, true)], null],
    ["the confirmed one of a nonce gives the block", [candidate(0n, "broadcast", null), candidate(0n, "confirmed", 5)], { nonce: 0n, blockNumber: 5 }],
    ["confirmed without a block is waited for", [candidate(0n, "confirmed", null, true)], { nonce: 0n, blockNumber: null }],
  ])("first unbooked: %s", (_name, candidates, expected) => {
    expect(firstUnbooked(candidates)).toEqual(expected);
  });

  it.each<[string, number, number | null, ReturnType<typeof firstUnbooked>, number | null]>([
    ["first reconciliation up to the final block", 10, null, null, 10],
    ["block 0 is new on a first reconciliation", 0, null, null, 0],
    ["a final block below 0 (a young chain) is nothing", -3, null, null, null],
    ["new blocks", 10, 7, null, 10],
    ["nothing new", 7, 7, null, null],
    ["the head went back below the reconciled block", 6, 7, null, null],
    ["up to the block before an unbooked transaction", 10, 3, { nonce: 4n, blockNumber: 8 }, 7],
    ["an unbooked transaction right after the reconciled block", 10, 7, { nonce: 4n, blockNumber: 8 }, null],
    ["an unbooked transaction whose block is not known yet", 10, 3, { nonce: 4n, blockNumber: null }, null],
    ["an unbooked transaction past the final block changes nothing", 10, 3, { nonce: 4n, blockNumber: 12 }, 10],
    ["an unbooked transaction in block 0 of a first reconciliation", 10, null, { nonce: 0n, blockNumber: 0 }, null],
  ])("reconcile up to: %s", (_name, final, reconciled, unbooked, expected) => {
    expect(reconcileUpTo(final, reconciled, unbooked)).toBe(expected);
  });

  it.each([
    [null, 41, "blocks 0-41"],
    [41, 42, "blocks 42-42"],
    [41, 60, "blocks 42-60"],
  ])("after block %p, up to %i: note %s", (reconciled, upTo, expected) => {
    expect(topupNote(reconciled, upTo)).toBe(expected);
  });

  it("names a topup by chain, gas wallet and block", () => {
    expect(topupDedupeKey(97, "0xAbC", 42)).toBe("topup:97:0xAbC:42");
  });

  const MAX_UINT256 = (1n << 256n) - 1n;
  const gas = (txHash: string, amount: bigint): ChainMovingEntry => ({ kind: "gas", txHash, amount });
  const withdrawal = (txHash: string, amount: bigint): ChainMovingEntry => ({ kind: "withdrawal", txHash, amount });

  it.each<[string, string[], ChainMovingEntry[], bigint]>([
    ["no transactions", [], [gas("0xa", -5n)], 0n],
    ["gas entries of the given transactions only", ["0xa", "0xb"], [gas("0xa", -5n), gas("0xb", -7n), gas("0xc", -11n)], -12n],
    ["a withdrawal's entry includes its gas, which is not counted again", ["0xa", "0xw"], [gas("0xa", -5n), gas("0xw", -3n), withdrawal("0xw", -1_003n)], -1_008n],
    ["a drain's value and its gas both count", ["0xa", "0xd"], [gas("0xa", -5n), gas("0xd", -3n), { kind: "topup", txHash: "0xd", amount: -990n }], -998n],
    ["a hash listed twice counts once", ["0xa", "0xa"], [gas("0xa", -5n)], -5n],
    ["amounts near 2^256", ["0xa", "0xb"], [gas("0xa", -MAX_UINT256), gas("0xb", -MAX_UINT256)], -2n * MAX_UINT256],
  ])("explained change: %s", (_name, hashes, entries, expected) => {
    expect(explainedChange(hashes, entries)).toBe(expected);
  });
});
