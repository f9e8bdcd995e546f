import { BalanceCache } from "./balance-cache";

const address = "0x52908400098527886E0F7030069857D2E4169EE7";

/** A node whose answers the test sets, counting the reads it gets; and a clock the test moves. */
function setup(ttl: ReadonlyMap<number, number> = new Map([[1, 12_000]])) {
  let now = 1_000_000;
  const reads: number[] = [];
  let answer: () => Promise<bigint> = async () => 5n;
  const cache = new BalanceCache(ttl, () => now);
  return {
    read: (chainId = 1, who = address) =>
      cache.read(chainId, who, () => {
        reads.push(chainId);
        return answer();
      }),
    reads,
    answer: (next: () => Promise<bigint>) => (answer = next),
    advance: (ms: number) => (now += ms),
  };
}

describe("BalanceCache", () => {
  it("answers two reads within the block time with one node read, and reads again after it", async () => {
    const t = setup();
    await expect(t.read()).resolves.toBe(5n);
    t.answer(async () => 6n);
    t.advance(11_999);
    await expect(t.read()).resolves.toBe(5n);
    expect(t.reads).toHaveLength(1);
    t.advance(1);
    await expect(t.read()).resolves.toBe(6n);
    expect(t.reads).toHaveLength(2);
  });

  it("shares one node read among requests that arrive while it is under way", async () => {
    const t = setup();
    let resolve!: (value: bigint) => void;
    t.answer(() => new Promise<bigint>((r) => (resolve = r)));
    const both = Promise.all([t.read(), t.read()]);
    resolve(7n);
    await expect(both).resolves.toEqual([7n, 7n]);
    expect(t.reads).toHaveLength(1);
  });

  it("keeps no failed read: each request asks the node again (chain_unavailable stays per request)", async () => {
    const t = setup();
    t.answer(() => Promise.reject(new Error("no answer within 3000 ms")));
    await expect(t.read()).rejects.toThrow("no answer");
    await expect(t.read()).rejects.toThrow("no answer");
    t.answer(async () => 8n);
    await expect(t.read()).resolves.toBe(8n);
    expect(t.reads).toHaveLength(3);
  });

  it.each<[string, (t: ReturnType<typeof setup>) => Promise<unknown>, number]>([
    ["the same gas wallet in another case", (t) => t.read(1, address.toLowerCase()), 1],
    ["another gas wallet", (t) => t.read(1, "0x0000000000000000000000000000000000000001"), 2],
    ["another chain", (t) => t.read(56), 2],
    ["a chain without a cache time", (t) => t.read(97), 2],
  ])("after a read, %s makes %i node reads in all", async (_what, second, reads) => {
    const t = setup(new Map([[1, 12_000], [56, 1_000], [97, 0]]));
    await t.read();
    await second(t);
    expect(t.reads).toHaveLength(reads);
  });

  it("reads a chain at 0 every time", async () => {
    const t = setup(new Map([[1, 0]]));
    await t.read();
    await t.read();
    expect(t.reads).toHaveLength(2);
  });
});
