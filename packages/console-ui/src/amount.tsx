import { formatUnits } from "./format";
import type { Asset } from "./units";

/**
 * An amount in its asset's units with its symbol (25 USDT, 0.00052 ETH), exact; the base units on
 * hover. Without a known asset, the base units themselves, said so.
 */
export function Amount({ value, asset, testId }: { value: string | undefined | null; asset: Asset | undefined; testId?: string }) {
  if (value === undefined || value === null) return <>—</>;
  if (!asset) return <span data-testid={testId}>{value} (smallest units)</span>;
  const base = asset.decimals === 18 ? "wei" : `base units (10^-${asset.decimals} ${asset.symbol})`;
  return (
    <span className="amount" title={`${value} ${base}`} data-testid={testId} data-base-units={value}>
      {formatUnits(value, asset.decimals)} {asset.symbol}
    </span>
  );
}
