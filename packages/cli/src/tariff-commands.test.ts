import { chainRegistry, devnetTokenAddress } from "@sweep/chains";
import { configuredTariffs } from "@sweep/fees";
import { measureTariff, type TariffMeasurement } from "./tariff-commands";
import { captureOutput } from "./test-support";

describe("tariff measure", () => {
  const out = captureOutput();
  let measured: TariffMeasurement;
  // Two anvils, one after the other, each with its deployments and a dozen transactions.
  beforeAll(async () => {
    await measureTariff({ out });
    measured = out.results[0] as TariffMeasurement;
  }, 120_000);

  const testnet = chainRegistry("testnet", devnetTokenAddress, {});

  it("measures every asset of every testnet chain: tokens above the plain transfer, new not below existing; the native coin at 21,000", () => {
    expect(measured.chains.map((c) => [c.chain_id, Object.keys(c.classic_gas)])).toEqual(testnet.map((c) => [c.chainId, [...c.tokens.map((t) => t.ticker), c.nativeTicker]]));
    for (const chain of testnet) {
      const gas = measured.chains.find((c) => c.chain_id === chain.chainId)!.classic_gas;
      expect(gas[chain.nativeTicker]).toEqual({ new: 21_000, existing: 21_000 });
      for (const token of chain.tokens) {
        const { new: created, existing } = gas[token.ticker]!;
        expect(Number.isSafeInteger(existing) && existing > 21_000).toBe(true);
        expect(created).toBeGreaterThanOrEqual(existing);
      }
    }
  });

  it("prints configuration lines that configuredTariffs reads back as the measured figures", () => {
    const lines = out.lines.filter((line) => line.startsWith("CLASSIC_GAS_"));
    expect(lines).toHaveLength(testnet.flatMap((c) => c.tokens).length);
    const env = Object.fromEntries(lines.map((line) => line.split("=") as [string, string]));
    expect(env).toEqual(measured.environment);

    const tariffs = configuredTariffs(testnet, env);
    for (const chain of measured.chains) {
      const classicGas = tariffs.find((t) => t.chainId === chain.chain_id)!.classicGas!;
      expect(Object.fromEntries(Object.entries(classicGas).map(([ticker, gas]) => [ticker, { new: Number(gas.new), existing: Number(gas.existing) }]))).toEqual(chain.classic_gas);
    }
  });

  it("measures what packages/fees holds when nothing is configured: a change of the contracts or of anvil shows here", () => {
    expect(configuredTariffs(testnet, {}).map((t) => [t.chainId, t.classicGas])).toEqual(
      measured.chains.map((c) => [c.chain_id, Object.fromEntries(Object.entries(c.classic_gas).map(([ticker, gas]) => [ticker, { new: BigInt(gas.new), existing: BigInt(gas.existing) }]))]),
    );
  });

  it("prints the figures per chain and asset for people", () => {
    const text = out.lines.join("\n");
    for (const chain of measured.chains) {
      expect(text).toContain(`chain ${chain.chain_id} (${chain.name})`);
      for (const [ticker, gas] of Object.entries(chain.classic_gas)) expect(text).toMatch(new RegExp(`^  ${ticker} +new ${gas.new.toLocaleString("en-US")}`, "m"));
    }
  });
});
