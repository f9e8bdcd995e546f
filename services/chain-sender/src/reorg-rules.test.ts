import { SETTLED_WATCH_BLOCKS, reorgedStep, settledPlace, settledWatchFrom } from "./reorg-rules";

const A = "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const B = "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

describe("reorg rules", () => {
  it.each([
    [1_000, 1_000 - SETTLED_WATCH_BLOCKS + 1],
    [SETTLED_WATCH_BLOCKS - 1, 0],
    [0, 0],
  ])("at head %i settled transactions from block %i on are re-checked", (head, from) => {
    expect(settledWatchFrom(head)).toBe(from);
  });

  it.each`
    canonical                                  | expected     | story
    ${A}                                       | ${"kept"}    | ${"its block is the chain's block 100"}
    ${A.toUpperCase().replace("0X", "0x")}     | ${"kept"}    | ${"the same hash in another letter case"}
    ${B}                                       | ${"left"}    | ${"another block is the chain's block 100"}
    ${null}                                    | ${"unknown"} | ${"no node answered with block 100: nothing decided"}
  `("a transaction settled in block 100: $story ($expected)", ({ canonical, expected }) => {
    expect(settledPlace({ blockNumber: 100, blockHash: A }, canonical)).toBe(expected);
  });

  // Nonce 5, confirmations 3; the nonce count at depth read at block 98 (head 100).
  it.each`
    receipt                  | receiptsHead | countAtDepth | expected      | story
    ${{ blockNumber: 98 }}   | ${100}       | ${6n}        | ${"restored"} | ${"mined again, three blocks deep"}
    ${{ blockNumber: 99 }}   | ${100}       | ${5n}        | ${"wait"}     | ${"mined again, two blocks deep"}
    ${null}                  | ${100}       | ${5n}        | ${"resend"}   | ${"out of the chain and its nonce free: the stored transaction goes again"}
    ${null}                  | ${100}       | ${3n}        | ${"resend"}   | ${"earlier nonces out of the chain too"}
    ${null}                  | ${90}        | ${5n}        | ${"resend"}   | ${"a lagging node, the nonce free: sending again is harmless"}
    ${null}                  | ${100}       | ${6n}        | ${"lost"}     | ${"another transaction holds the nonce at depth"}
    ${null}                  | ${97}        | ${6n}        | ${"wait"}     | ${"the nonce counted past by a fresher node than the one without a receipt"}
  `("a settled transaction out of the chain: $story ($expected)", ({ receipt, receiptsHead, countAtDepth, expected }) => {
    expect(reorgedStep({ nonce: 5n, receipt, receiptsHead, countAtDepth, countedAt: 98, confirmations: 3 })).toBe(expected);
  });
});
