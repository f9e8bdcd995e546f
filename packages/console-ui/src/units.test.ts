import { assetOf } from "./units";

const chains = [
  { chain_id: 97, name: "BSC Testnet", native: "tBNB", tokens: [{ token: "USDT", address: `0x${"11".repeat(20)}` as const, decimals: 18 }] },
  { chain_id: 11155111, name: "Sepolia", native: "ETH", tokens: [{ token: "USDT", address: `0x${"22".repeat(20)}` as const, decimals: 6 }] },
];

describe("assetOf", () => {
  it.each<[number, string | undefined, { symbol: string; decimals: number } | undefined]>([
    [97, undefined, { symbol: "tBNB", decimals: 18 }],
    [97, "tBNB", { symbol: "tBNB", decimals: 18 }],
    [97, "USDT", { symbol: "USDT", decimals: 18 }],
    [11155111, "USDT", { symbol: "USDT", decimals: 6 }],
    [11155111, "DAI", undefined],
    [1, undefined, undefined],
  ])("chain %i, token %s: %j", (chainId, token, asset) => {
    expect(assetOf(chains, chainId, token)).toEqual(asset);
  });
});
