import { readNodeBalance, type BalanceNode } from "./node-balance";

const address = "0x52908400098527886E0F7030069857D2E4169EE7";

describe("readNodeBalance", () => {
  it("asks the node for the address's balance at the latest block", async () => {
    const asked: unknown[] = [];
    const node: BalanceNode = {
      getBalance: async (...args) => {
        asked.push(args);
        return 2n ** 255n;
      },
    };
    await expect(readNodeBalance(node, address, 100)).resolves.toBe(2n ** 255n);
    expect(asked).toEqual([[address, "latest"]]);
  });

  it.each<[string, BalanceNode, RegExp]>([
    ["a node that fails", { getBalance: () => Promise.reject(new Error("connect ECONNREFUSED")) }, /ECONNREFUSED/],
    ["a node that never answers", { getBalance: () => new Promise<bigint>(() => {}) }, /^no answer within 50 ms$/],
    ["a node that answers too late", { getBalance: () => new Promise<bigint>((resolve) => setTimeout(() => resolve(1n), 200)) }, /^no answer within 50 ms$/],
  ])("rejects %s", async (_what, node, message) => {
    await expect(readNodeBalance(node, address, 50)).rejects.toThrow(message);
  });
});
