import { chooseNonce, nonceGaps } from "./nonces";

describe("nonce choice", () => {
  it.each([
    ["a first transaction", null, 0n, null, 0n],
    ["the stored next nonce", 5n, 5n, 4n, 5n],
    ["the stored next nonce while earlier ones are still in the pool", 7n, 5n, 6n, 7n],
    ["the chain's count when something else used the wallet", 5n, 9n, 4n, 9n],
    ["never a nonce that has a stored transaction", 3n, 3n, 6n, 7n],
    ["anvil answering a stale pending count", 8n, 7n, 7n, 8n],
  ])("%s", (_name, nextNonce, chainPending, highestStored, expected) => {
    expect(chooseNonce({ nextNonce, chainPending, highestStored })).toBe(expected);
  });
});

describe("nonce gaps", () => {
  it.each([
    ["nothing in flight", { latest: 3n, pending: 3n, inFlight: [], settled: [] }, []],
    ["the next nonce is ours", { latest: 3n, pending: 4n, inFlight: [3n, 4n], settled: [] }, []],
    ["ours queued behind a missing nonce", { latest: 3n, pending: 3n, inFlight: [5n], settled: [] }, [3n, 4n]],
    ["the node holds something executable for the missing nonce", { latest: 3n, pending: 4n, inFlight: [5n], settled: [] }, []],
    ["a nonce with a settled transaction is no gap", { latest: 3n, pending: 3n, inFlight: [5n], settled: [3n] }, [4n]],
    ["ours not known to the node at the next nonce (a rebroadcast fixes it)", { latest: 3n, pending: 3n, inFlight: [3n, 4n], settled: [] }, []],
  ])("%s", (_name, input, expected) => {
    expect(nonceGaps(input)).toEqual(expected);
  });
});
