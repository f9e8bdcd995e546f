import { chainRegistry, devnetTokenAddress } from "@sweep/chains";
import { ConfigError } from "@sweep/common";
import { balanceCacheTtls } from "./block-time";

describe("balanceCacheTtls", () => {
  const chains = (environment: "testnet" | "mainnet", env: NodeJS.ProcessEnv = {}) => chainRegistry(environment, devnetTokenAddress, env);

  it.each<[string, "testnet" | "mainnet", Record<string, string>, Array<[number, number]>]>([
    ["testnet defaults: a block's time", "testnet", {}, [[11155111, 12_000], [97, 450]]],
    ["mainnet defaults", "mainnet", {}, [[1, 12_000], [56, 450]]],
    ["the chain's own block time", "testnet", { BLOCK_TIME_MS_97: "3000" }, [[11155111, 12_000], [97, 3_000]]],
    ["a set value", "testnet", { BALANCE_CACHE_MS_97: "3000" }, [[11155111, 12_000], [97, 3_000]]],
    ["0 turns the cache off", "mainnet", { BALANCE_CACHE_MS_1: "0" }, [[1, 0], [56, 450]]],
    ["an empty value is the default", "mainnet", { BALANCE_CACHE_MS_1: "" }, [[1, 12_000], [56, 450]]],
  ])("%s", (_what, environment, env, expected) => {
    expect([...balanceCacheTtls(chains(environment, env), env)]).toEqual(expected);
  });

  it("reads only the served chains' variables", () => {
    expect([...balanceCacheTtls([{ chainId: 1, blockTimeMs: 12_000 }], { BALANCE_CACHE_MS_56: "x" })]).toEqual([[1, 12_000]]);
  });

  it.each(["-1", "1.5", "12s", "600001"])("refuses BALANCE_CACHE_MS_1=%s, naming the variable", (value) => {
    const ethereum = [{ chainId: 1, blockTimeMs: 12_000 }];
    expect(() => balanceCacheTtls(ethereum, { BALANCE_CACHE_MS_1: value })).toThrow(ConfigError);
    expect(() => balanceCacheTtls(ethereum, { BALANCE_CACHE_MS_1: value })).toThrow(/BALANCE_CACHE_MS_1 must be whole milliseconds/);
  });
});
