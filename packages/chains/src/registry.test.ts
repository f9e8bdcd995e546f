import { collectingProblems } from "@sweep/common";
import { getAddress } from "ethers";
import { CHAIN_PRESETS } from "./presets";
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

  it.each([
    ["5", "depth", 5],
    ["finalized", "finalized", 1],
    ["", "depth", 1],
  ])("CONFIRMATIONS_97=%j settles at %s (depth %i, the preset's beside finalized)", (value, finality, confirmations) => {
    const chain = chainRegistry("testnet", fakeDevnetAddress, { CONFIRMATIONS_97: value }).find((c) => c.chainId === 97)!;
    expect([chain.finality, chain.confirmations]).toEqual([finality, confirmations]);
  });

  it.each([["-1"], ["two"], ["1.5"], ["Finalized"]])("refuses CONFIRMATIONS_97=%s, naming it", (value) => {
    expect(() => chainRegistry("testnet", fakeDevnetAddress, { CONFIRMATIONS_97: value })).toThrow(/^CONFIRMATIONS_97 must be a whole number of blocks from 0 to 1000, or finalized$/);
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

/** Runs chainRegistry the way loadChainConfigs does: every problem noted, none thrown. */
function problemsOf(environment: "testnet" | "mainnet", env: Record<string, string>): string[] {
  const problems: string[] = [];
  chainRegistry(environment, fakeDevnetAddress, env, collectingProblems(problems));
  return problems;
}

describe("chains from configuration", () => {
  const configured = {
    ENV_CHAINS: "97,777001",
    CHAIN_NAME_777001: "Acme Chain",
    NATIVE_TICKER_777001: "ACME",
    CONFIRMATIONS_777001: "4",
    BLOCK_TIME_MS_777001: "2000",
    TOKENS_777001: "usdc:6,DAI:18",
    TOKEN_777001_USDC: "0x00000000000000000000000000000000000000c1",
    TOKEN_777001_DAI: "0x00000000000000000000000000000000000000d1",
  };

  it("presets list each chain once, with their issuers' checksummed token contracts", () => {
    const ids = CHAIN_PRESETS.map((p) => p.chainId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining([1, 11155111, 56, 97, 10, 11155420, 8453, 84532, 42161, 421614]));
    for (const token of CHAIN_PRESETS.flatMap((p) => p.tokens)) if (token.address) expect(getAddress(token.address)).toBe(token.address);
  });

  it.each([
    ["testnet", "11155111,97,84532", [11155111, 97, 84532]],
    ["mainnet", "8453, 1", [8453, 1]],
    ["testnet", "777001", [777001]],
  ] as const)("%s: ENV_CHAINS=%s serves %j, in that order", (environment, value, ids) => {
    expect(environmentChainIds(environment, { ENV_CHAINS: value })).toEqual(ids);
  });

  it.each([
    ["97,,1", /^ENV_CHAINS must be a comma-separated list of chain ids from 1 to 2147483647$/],
    ["0", /^ENV_CHAINS must be a comma-separated list/],
    ["2147483648", /^ENV_CHAINS must be a comma-separated list/],
    ["sepolia", /^ENV_CHAINS must be a comma-separated list/],
    ["97,97", /^ENV_CHAINS names chain 97 twice$/],
    ["97,1", /^ENV_CHAINS names 1 \(Ethereum\), a mainnet chain, and SERVICE_ENV is testnet$/],
  ])("refuses ENV_CHAINS=%s on testnet", (value, message) => {
    expect(() => environmentChainIds("testnet", { ENV_CHAINS: value })).toThrow(message);
  });

  it("describes a chain without a preset from its variables, thresholds from its block time", () => {
    const chain = chainRegistry("testnet", fakeDevnetAddress, configured).find((c) => c.chainId === 777001);
    expect(chain).toEqual({
      chainId: 777001,
      name: "Acme Chain",
      nativeTicker: "ACME",
      feeModel: "l1",
      confirmations: 4,
      finality: "depth",
      minConfirmations: undefined,
      blockTimeMs: 2000,
      replaceAfterBlocks: 8,
      dropAfterBlocks: 30,
      devnetPort: undefined,
      tokens: [
        { ticker: "USDC", decimals: 6, address: "0x00000000000000000000000000000000000000C1", feeOnTransfer: false },
        { ticker: "DAI", decimals: 18, address: "0x00000000000000000000000000000000000000D1", feeOnTransfer: false },
      ],
    });
  });

  it("names every variable a chain without a preset lacks, at once", () => {
    expect(problemsOf("testnet", { ENV_CHAINS: "777001", TOKENS_777001: "USDT:6" })).toEqual([
      "CHAIN_NAME_777001 is required: chain 777001 is not a preset, so its name must be configured",
      "NATIVE_TICKER_777001 is required: chain 777001 is not a preset, so its native coin's ticker must be configured",
      "CONFIRMATIONS_777001 is required: chain 777001 is not a preset, so its confirmation depth must be configured",
      "BLOCK_TIME_MS_777001 is required: chain 777001 is not a preset, so its block time must be configured",
      "TOKEN_777001_USDT is required: the address of USDT's contract on chain 777001",
    ]);
  });

  it("lets configuration rename a preset, retick its coin and relist its tokens", () => {
    const env = { CHAIN_NAME_97: "BSC Chapel", NATIVE_TICKER_97: "BNB", TOKENS_97: "USDT:18,USDC:18", TOKEN_97_USDC: "0x64544969ed7EBf5f083679233325356EbE738930" };
    const bsc = chainRegistry("testnet", fakeDevnetAddress, env).find((c) => c.chainId === 97)!;
    expect(bsc).toMatchObject({ name: "BSC Chapel", nativeTicker: "BNB", feeModel: "l1" });
    expect(bsc.tokens.map((t) => [t.ticker, t.address])).toEqual([
      ["USDT", "devnet:97:USDT"],
      ["USDC", "0x64544969ed7EBf5f083679233325356EbE738930"],
    ]);
  });

  it("keeps a preset's token contracts when TOKENS_ lists them again, and asks the address of a token it adds", () => {
    const env = { TOKENS_1: "USDT:6,USDC:6" };
    expect(problemsOf("mainnet", env)).toEqual(["TOKEN_1_USDC is required: the address of USDC's contract on chain 1"]);
    const ethereum = chainRegistry("mainnet", fakeDevnetAddress, { ...env, TOKEN_1_USDC: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48" })[0]!;
    expect(ethereum.tokens.map((t) => [t.ticker, t.address])).toEqual([
      ["USDT", "0xdAC17F958D2ee523a2206206994597C13D831ec7"],
      ["USDC", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"],
    ]);
  });

  it("gives the L2 presets their fee models, and refuses a FEE_MODEL_ that contradicts a preset", () => {
    const chains = chainRegistry("mainnet", fakeDevnetAddress, { ENV_CHAINS: "10,8453,42161", FEE_MODEL_10: "op-stack" });
    expect(chains.map((c) => [c.chainId, c.feeModel, c.blockTimeMs])).toEqual([
      [10, "op-stack", 2000],
      [8453, "op-stack", 2000],
      [42161, "arbitrum", 250],
    ]);
    expect(problemsOf("mainnet", { ENV_CHAINS: "8453", FEE_MODEL_8453: "l1" })).toEqual(["FEE_MODEL_8453 is l1, but Base charges as op-stack"]);
    expect(problemsOf("testnet", { ...configured, FEE_MODEL_777001: "optimism" })).toEqual(["FEE_MODEL_777001 must be one of l1, op-stack, arbitrum"]);
  });

  it.each([
    ["USDT", /^TOKENS_97 must list tokens as TICKER:decimals \(decimals 0 to 36\), comma-separated, e.g. USDT:6,USDC:6$/],
    ["USDT:37", /^TOKENS_97 must list tokens as TICKER:decimals/],
    ["USDT:6:0x55d398326f99059fF775485246999027B3197955", /^TOKENS_97 must list tokens as TICKER:decimals/],
    ["USDT:18,usdt:18", /^TOKENS_97 lists USDT twice$/],
    ["USDT:6", /^TOKENS_97 lists USDT with 6 decimals; BSC Testnet's USDT has 18$/],
  ])("refuses TOKENS_97=%s, naming it", (value, message) => {
    expect(() => chainRegistry("testnet", fakeDevnetAddress, { TOKENS_97: value })).toThrow(message);
  });

  it.each([
    [{ TOKENS_97: "USDT:18,TBNB:18" }, "TBNB"],
    [{ NATIVE_TICKER_97: "usdt" }, "USDT"],
    [{ TOKENS_97: "NATIVE:18" }, "NATIVE"],
  ])("refuses a token a sweep would take for the native coin: %j", (env, ticker) => {
    expect(() => chainRegistry("testnet", fakeDevnetAddress, env)).toThrow(`chain 97 lists a token ${ticker}, which a sweep's token field takes for the native coin (NATIVE_TICKER_97, TOKENS_97)`);
  });

  it.each([
    ["CHAIN_NAME_97", "", undefined],
    ["CHAIN_NAME_97", "BSC; drop table", /^CHAIN_NAME_97 must be 1 to 40 letters/],
    ["NATIVE_TICKER_97", "t-BNB", /^NATIVE_TICKER_97 must be a ticker of 1 to 11 letters and digits$/],
  ])("%s=%j", (variable, value, message) => {
    const read = () => chainRegistry("testnet", fakeDevnetAddress, { [variable]: value });
    if (message) expect(read).toThrow(message);
    else expect(read()[1]!.name).toBe("BSC Testnet");
  });
});
