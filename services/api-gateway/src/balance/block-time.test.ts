import { ConfigError } from "@sweep/common";
import { balanceCacheTtls } from "./block-time";

describe("balanceCacheTtls", () => {
  it.each<[string, number[], Record<string, string>, Array<[number, number]>]>([
    ["testnet defaults", [11155111, 97], {}, [[11155111, 12_000], [97, 1_000]]],
    ["mainnet defaults", [1, 56], {}, [[1, 12_000], [56, 1_000]]],
    ["a set value", [11155111, 97], { BALANCE_CACHE_MS_97: "3000" }, [[11155111, 12_000], [97, 3_000]]],
    ["0 turns the cache off", [1], { BALANCE_CACHE_MS_1: "0" }, [[1, 0]]],
    ["an empty value is the default", [1], { BALANCE_CACHE_MS_1: "" }, [[1, 12_000]]],
    ["another chain's variable is not read", [1], { BALANCE_CACHE_MS_56: "x" }, [[1, 12_000]]],
    ["a chain of unknown block time is not cached", [31337], {}, [[31337, 0]]],
  ])("%s", (_what, chains, env, expected) => {
    expect([...balanceCacheTtls(chains, env)]).toEqual(expected);
  });

  it.each(["-1", "1.5", "12s", "600001"])("refuses BALANCE_CACHE_MS_1=%s, naming the variable", (value) => {
    expect(() => balanceCacheTtls([1], { BALANCE_CACHE_MS_1: value })).toThrow(ConfigError);
    expect(() => balanceCacheTtls([1], { BALANCE_CACHE_MS_1: value })).toThrow(/BALANCE_CACHE_MS_1 must be whole milliseconds/);
  });
});
