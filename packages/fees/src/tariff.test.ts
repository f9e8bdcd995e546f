import { classicGasVariable, configuredTariffs, formatClassicGas, parseClassicGas, type ChainTariff } from "./tariff";

const SEPOLIA = { chainId: 11155111, nativeTicker: "ETH", tokens: [{ ticker: "USDT" }] };
const BSC_TESTNET = { chainId: 97, nativeTicker: "tBNB", tokens: [{ ticker: "USDT" }] };
const ETHEREUM = { chainId: 1, nativeTicker: "ETH", tokens: [{ ticker: "USDT" }] };
const EXTRA_GAS = { delegation: 12_500n, account: 12_500n };

describe("parseClassicGas", () => {
  it.each([
    ["new and existing", "60000,50547", { new: 60_000n, existing: 50_547n }],
    ["equal figures", "50547,50547", { new: 50_547n, existing: 50_547n }],
    ["the int64 bound", "9223372036854775807,1", { new: 2n ** 63n - 1n, existing: 1n }],
  ])("takes %s", (_what, value, gas) => {
    expect(parseClassicGas("CLASSIC_GAS_97_USDT", value)).toEqual(gas);
  });

  it.each([
    ["an empty value", ""],
    ["one figure", "50547"],
    ["three figures", "1,2,3"],
    ["new below existing", "50000,50547"],
    ["zero", "0,0"],
    ["a negative figure", "-1,1"],
    ["a float", "50547.5,50547"],
    ["an exponent", "5e4,5e4"],
    ["thousands separators", "50_547,50_547"],
    ["spaces", "50547, 50547"],
    ["beyond int64", "9223372036854775808,1"],
  ])("refuses %s, naming the variable", (_what, value) => {
    expect(() => parseClassicGas("CLASSIC_GAS_97_USDT", value)).toThrow(
      `CLASSIC_GAS_97_USDT takes <new>,<existing>: two whole numbers of gas above zero, new not below existing; got ${JSON.stringify(value)}`,
    );
  });

  it("reads back what formatClassicGas writes", () => {
    const gas = { new: 61_234n, existing: 50_583n };
    expect(parseClassicGas(classicGasVariable(97, "USDT"), formatClassicGas(gas))).toEqual(gas);
  });
});

describe("configuredTariffs", () => {
  const tariff = (tokenGas: Record<string, { new: bigint; existing: bigint }>, nativeTicker: string, chainId: number): ChainTariff => ({
    chainId,
    rateBps: 7000,
    nativeMarkupBps: 1000,
    classicGas: { [nativeTicker]: { new: 21_000n, existing: 21_000n }, ...tokenGas },
    extraGas: EXTRA_GAS,
  });

  it.each<[string, typeof SEPOLIA, NodeJS.ProcessEnv, ChainTariff]>([
    ["the measured figures when nothing is configured (Sepolia)", SEPOLIA, {}, tariff({ USDT: { new: 50_547n, existing: 50_547n } }, "ETH", 11155111)],
    ["the measured figures when nothing is configured (BSC testnet)", BSC_TESTNET, {}, tariff({ USDT: { new: 50_583n, existing: 50_583n } }, "tBNB", 97)],
    ["the configured figures over the measured ones", BSC_TESTNET, { CLASSIC_GAS_97_USDT: "61000,50000" }, tariff({ USDT: { new: 61_000n, existing: 50_000n } }, "tBNB", 97)],
    ["the measured figures when the variable is empty", SEPOLIA, { CLASSIC_GAS_11155111_USDT: "" }, tariff({ USDT: { new: 50_547n, existing: 50_547n } }, "ETH", 11155111)],
    ["another chain's variable left alone", SEPOLIA, { CLASSIC_GAS_97_USDT: "1,1" }, tariff({ USDT: { new: 50_547n, existing: 50_547n } }, "ETH", 11155111)],
    ["a configured benchmark on a chain measured nowhere", ETHEREUM, { CLASSIC_GAS_1_USDT: "63000,46000" }, tariff({ USDT: { new: 63_000n, existing: 46_000n } }, "ETH", 1)],
    [
      "configured rates",
      SEPOLIA,
      { RATE_BPS_11155111: "5000", NATIVE_MARKUP_BPS_11155111: "0" },
      { ...tariff({ USDT: { new: 50_547n, existing: 50_547n } }, "ETH", 11155111), rateBps: 5000, nativeMarkupBps: 0 },
    ],
    ["no benchmarks on a chain with neither measured nor configured figures", ETHEREUM, {}, { chainId: 1, rateBps: 7000, nativeMarkupBps: 1000 }],
  ])("%s", (_what, chain, env, expected) => {
    expect(configuredTariffs([chain], env)).toEqual([expected]);
  });

  it("refuses a malformed benchmark, naming its variable", () => {
    expect(() => configuredTariffs([SEPOLIA], { CLASSIC_GAS_11155111_USDT: "50547" })).toThrow(/^CLASSIC_GAS_11155111_USDT takes <new>,<existing>/);
  });

  it("gives each tariff its own objects", () => {
    const [first] = configuredTariffs([SEPOLIA], {});
    first!.classicGas!.USDT!.new = 1n;
    first!.extraGas!.delegation = 1n;
    expect(configuredTariffs([SEPOLIA], {})[0]).toEqual(tariff({ USDT: { new: 50_547n, existing: 50_547n } }, "ETH", 11155111));
  });
});
