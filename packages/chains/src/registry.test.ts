import { chainRegistry, environmentChainIds, feeOnTransferTokens, rpcUrlsFor } from "./registry";

const fakeDevnetAddress = (chainId: number, ticker: string) => `devnet:${chainId}:${ticker}`;

describe("chain and token registry", () => {
  it.each([
    ["testnet", [11155111, 97]],
    ["mainnet", [1, 56]],
  ] as const)("%s serves chains %j", (environment, ids) => {
    expect(environmentChainIds(environment)).toEqual(ids);
    expect(chainRegistry(environment, fakeDevnetAddress, {}).map((c) => c.chainId)).toEqual(ids);
  });

  it.each([
    [11155111, "ETH", 6],
    [97, "tBNB", 18],
  ])("testnet chain %i: native %s, USDT with %i decimals at the devnet address", (chainId, native, decimals) => {
    const chain = chainRegistry("testnet", fakeDevnetAddress, {}).find((c) => c.chainId === chainId)!;
    expect(chain.nativeTicker).toBe(native);
    expect(chain.tokens).toEqual([{ ticker: "USDT", decimals, address: `devnet:${chainId}:USDT`, feeOnTransfer: false }]);
  });

  it("takes a real node's token address and confirmation depth from the environment", () => {
    const env = { TOKEN_97_USDT: "0x55d398326f99059fF775485246999027B3197955", CONFIRMATIONS_97: "5" };
    const chain = chainRegistry("testnet", fakeDevnetAddress, env).find((c) => c.chainId === 97)!;
    expect(chain.tokens[0]!.address).toBe(env.TOKEN_97_USDT);
    expect(chain.confirmations).toBe(5);
  });

  it.each([["-1"], ["two"], ["1.5"]])("refuses CONFIRMATIONS_97=%s, naming it", (value) => {
    expect(() => chainRegistry("testnet", fakeDevnetAddress, { CONFIRMATIONS_97: value })).toThrow(/^CONFIRMATIONS_97 must be a whole number of blocks from 0 to 1000$/);
  });

  it.each([
    [1, 12_000, 3, 5],
    [56, 450, 30, 135],
  ])("mainnet chain %i: a block every %i ms, replacement after %i blocks, a refused nonce given up after %i", (chainId, blockTimeMs, replaceAfterBlocks, dropAfterBlocks) => {
    const chain = chainRegistry("mainnet", fakeDevnetAddress, {}).find((c) => c.chainId === chainId)!;
    expect(chain).toMatchObject({ blockTimeMs, replaceAfterBlocks, dropAfterBlocks });
  });

  it("takes a chain's block time and thresholds in blocks from the environment, that chain's only", () => {
    const env = { BLOCK_TIME_MS_97: "1000", REPLACE_AFTER_BLOCKS_97: "15", DROP_AFTER_BLOCKS_97: "0", BLOCK_TIME_MS_11155111: "" };
    const [sepolia, bsc] = chainRegistry("testnet", fakeDevnetAddress, env);
    expect(bsc).toMatchObject({ blockTimeMs: 1000, replaceAfterBlocks: 15, dropAfterBlocks: 0 });
    expect(sepolia).toMatchObject({ blockTimeMs: 12_000, replaceAfterBlocks: 3, dropAfterBlocks: 5 });
  });

  it.each([
    ["BLOCK_TIME_MS_97", "0", /^BLOCK_TIME_MS_97 must be whole milliseconds from 1 to 600000$/],
    ["BLOCK_TIME_MS_97", "0.5", /^BLOCK_TIME_MS_97 must be whole milliseconds/],
    ["BLOCK_TIME_MS_97", "12s", /^BLOCK_TIME_MS_97 must be whole milliseconds/],
    ["REPLACE_AFTER_BLOCKS_97", "-1", /^REPLACE_AFTER_BLOCKS_97 must be a whole number of blocks from 0 to 100000$/],
    ["DROP_AFTER_BLOCKS_97", "2.5", /^DROP_AFTER_BLOCKS_97 must be a whole number of blocks/],
  ])("refuses %s=%s, naming it", (variable, value, message) => {
    expect(() => chainRegistry("testnet", fakeDevnetAddress, { [variable]: value })).toThrow(message);
  });

  it.each([
    ["true", true],
    ["false", false],
    ["", false],
  ])("FEE_ON_TRANSFER_97_USDT=%j marks the token %s, that chain's only", (value, marked) => {
    const [sepolia, bsc] = chainRegistry("testnet", fakeDevnetAddress, { FEE_ON_TRANSFER_97_USDT: value });
    expect(bsc!.tokens[0]!.feeOnTransfer).toBe(marked);
    expect(sepolia!.tokens[0]!.feeOnTransfer).toBe(false);
    expect(feeOnTransferTokens(bsc!)).toEqual(new Set(marked ? ["devnet:97:usdt"] : []));
    expect(feeOnTransferTokens(sepolia!).size).toBe(0);
  });

  it.each([["yes"], ["1"], ["TRUE"]])("refuses FEE_ON_TRANSFER_97_USDT=%s, naming it", (value) => {
    expect(() => chainRegistry("testnet", fakeDevnetAddress, { FEE_ON_TRANSFER_97_USDT: value })).toThrow(/^FEE_ON_TRANSFER_97_USDT must be true or false$/);
  });

  it.each([["0x1234"], ["usdt"], ["0x55d398326f99059fF775485246999027B3197956"]])("refuses TOKEN_97_USDT=%s, naming it", (value) => {
    expect(() => chainRegistry("testnet", fakeDevnetAddress, { TOKEN_97_USDT: value })).toThrow(/^TOKEN_97_USDT must be a token contract's address/);
  });

  it("mainnet lists the real USDT contracts and never the devnet", () => {
    const chains = chainRegistry("mainnet", () => {
      throw new Error("mainnet must not ask for devnet addresses");
    }, {});
    expect(chains.find((c) => c.chainId === 1)!.tokens[0]).toEqual({ ticker: "USDT", decimals: 6, address: "0xdAC17F958D2ee523a2206206994597C13D831ec7", feeOnTransfer: false });
  });

  it("uses RPC_URL_<chain_id> when set (a list), the local anvil otherwise, and demands it for chains without a devnet", () => {
    expect(rpcUrlsFor({ chainId: 97, devnetPort: 8546 }, {})).toEqual(["http://127.0.0.1:8546"]);
    expect(rpcUrlsFor({ chainId: 97, devnetPort: 8546 }, { RPC_URL_97: "https://bsc.example/k1,https://bsc2.example" })).toEqual(["https://bsc.example/k1", "https://bsc2.example"]);
    expect(() => rpcUrlsFor({ chainId: 1 }, {})).toThrow(/RPC_URL_1 is required/);
  });
});
