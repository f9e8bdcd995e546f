import { SETTLED_WATCH_BLOCKS, reorgedStep, reorgedTaken, settledPlace, settledWatchFrom } from "./reorg-rules";

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

  // Nonce 5, head 100, final at 98 (3 confirmations); lost once three rounds spanning 12 blocks saw the nonce taken.
  const abandon = { rounds: 3, blocks: 12 };
  const agreed = { rounds: 3, firstHead: 88, lastHead: 100 };
  it.each`
    receipt                  | countAtDepth | takenRun                                      | expected      | story
    ${{ blockNumber: 98 }}   | ${6n}        | ${undefined}                                  | ${"restored"} | ${"mined again, three blocks deep"}
    ${{ blockNumber: 99 }}   | ${5n}        | ${undefined}                                  | ${"wait"}     | ${"mined again, two blocks deep"}
    ${{ blockNumber: 98 }}   | ${6n}        | ${agreed}                                     | ${"restored"} | ${"a receipt after rounds without one: mined again all the same"}
    ${null}                  | ${5n}        | ${undefined}                                  | ${"resend"}   | ${"out of the chain and its nonce free: the stored transaction goes again"}
    ${null}                  | ${3n}        | ${undefined}                                  | ${"resend"}   | ${"earlier nonces out of the chain too"}
    ${null}                  | ${6n}        | ${{ rounds: 1, firstHead: 100, lastHead: 100 }} | ${"wait"}     | ${"the nonce counted past, no receipt once: perhaps a lagging backend's answer"}
    ${null}                  | ${6n}        | ${{ rounds: 3, firstHead: 95, lastHead: 100 }}  | ${"wait"}     | ${"three rounds, but within a lag of 5 blocks"}
    ${null}                  | ${6n}        | ${{ rounds: 2, firstHead: 80, lastHead: 100 }}  | ${"wait"}     | ${"20 blocks, but two rounds"}
    ${null}                  | ${6n}        | ${agreed}                                     | ${"lost"}     | ${"another transaction holds the nonce at depth, as rounds spanning 12 blocks agree"}
  `("a settled transaction out of the chain: $story ($expected)", ({ receipt, countAtDepth, takenRun, expected }) => {
    expect(reorgedStep({ nonce: 5n, receipt, final: 98, countAtDepth, takenRun, abandon })).toBe(expected);
  });

  it.each`
    receipt                 | countAtDepth | expected | story
    ${null}                 | ${6n}        | ${true}  | ${"no receipt, the nonce counted past"}
    ${null}                 | ${5n}        | ${false} | ${"no receipt, the nonce free"}
    ${{ blockNumber: 98 }}  | ${6n}        | ${false} | ${"a receipt"}
  `("nonce 5 seen taken this round: $story ($expected)", ({ receipt, countAtDepth, expected }) => {
    expect(reorgedTaken({ nonce: 5n, receipt, countAtDepth })).toBe(expected);
  });
});
