import { chainRegistry, devnetTokenAddress } from "@sweep/chains";
import { classicGasVariable, formatClassicGas } from "@sweep/fees";
import { classicTotal, measureClassicGas, type AssetMeasurement, type ClassicRun } from "./classic-gas-measurement";
import type { CommandContext } from "./context";

/** What `tariff measure --json` prints. Gas is a JSON integer, as the API's Gas. */
export interface TariffMeasurement {
  chains: Array<{ chain_id: number; name: string; classic_gas: Record<string, { new: number; existing: number }> }>;
  /** the variables that configure the token benchmarks measured, with their values */
  environment: Record<string, string>;
}

/**
 * `tariff measure`: the classic benchmarks of every testnet chain, each on a fresh anvil of its own
 * with the devnet tokens (listed tokens' addresses configured by TOKEN_<chain_id>_<TICKER> do not
 * apply: the measurement deploys its own), and the environment lines that configure them. The
 * native coin's benchmark is the plain transfer, not configured: it is printed for comparison.
 */
export async function measureTariff(ctx: Pick<CommandContext, "out">): Promise<void> {
  const result: TariffMeasurement = { chains: [], environment: {} };
  const lines: string[] = ["Classic benchmarks: a fresh anvil per chain, the platform contracts and devnet tokens deployed as `pnpm start` does"];
  for (const chain of chainRegistry("testnet", devnetTokenAddress, {})) {
    const assets = await measureClassicGas(chain);
    result.chains.push({
      chain_id: chain.chainId,
      name: chain.name,
      classic_gas: Object.fromEntries(assets.map((a) => [a.ticker, { new: Number(classicTotal(a.new)), existing: Number(classicTotal(a.existing)) }])),
    });
    for (const asset of assets.filter((a) => !a.native)) {
      result.environment[classicGasVariable(chain.chainId, asset.ticker)] = formatClassicGas({ new: classicTotal(asset.new), existing: classicTotal(asset.existing) });
    }
    lines.push(`chain ${chain.chainId} (${chain.name})`, ...assets.map(assetLine));
  }
  lines.push("", "Configuration (the tariff reads these; without them, the figures packages/fees/src/tariff.ts holds):");
  lines.push(...Object.entries(result.environment).map(([name, value]) => `${name}=${value}`));
  ctx.out.result(result, lines);
}

function assetLine(asset: AssetMeasurement): string {
  const ticker = asset.ticker.padEnd(6);
  if (asset.native) return `  ${ticker} new ${gas(classicTotal(asset.new))}  existing ${gas(classicTotal(asset.existing))}  (the address's own plain transfer)`;
  return `  ${ticker} new ${run(asset.new)}  existing ${run(asset.existing)}`;
}

function run(classic: ClassicRun): string {
  return `${gas(classicTotal(classic))} (top-up ${gas(classic.topUp)} + transfer ${gas(classic.transfer)})`;
}

function gas(value: bigint): string {
  return value.toLocaleString("en-US");
}
