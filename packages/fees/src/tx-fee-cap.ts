import type { VariableCheck } from "@sweep/common";

/** geth's, Erigon's and reth's default `--rpc.txfeecap`: 1 coin (1 ETH, 1 BNB), in wei. */
export const DEFAULT_TX_FEE_CAP = 10n ** 18n;

const maxUint256 = (1n << 256n) - 1n;

/**
 * `TX_FEE_CAP_<chain_id>`: the most one transaction may cost at its gas limit and max fee (gas
 * limit × maxFeePerGas), wei as decimal digits; else the nodes' default of one coin. A batch is
 * sized to stay within it, since a node refuses a transaction above its own cap.
 */
export function configuredTxFeeCap(chainId: number, env: NodeJS.ProcessEnv, check: VariableCheck): bigint {
  const variable = `TX_FEE_CAP_${chainId}`;
  const value = env[variable];
  if (!value) return DEFAULT_TX_FEE_CAP;
  return (
    check(() => {
      if (!/^[0-9]+$/.test(value) || BigInt(value) === 0n || BigInt(value) > maxUint256) throw new Error(`${variable} must be a whole number of wei above zero, in decimal digits`);
      return BigInt(value);
    }) ?? DEFAULT_TX_FEE_CAP
  );
}

/**
 * The node's own cap, read from its refusal: geth, Erigon and reth print it rounded to two
 * decimals, "tx fee (1.23 ether) exceeds the configured cap (1.00 ether)". The least cap that
 * prints so (1.00 is at least 0.995), or null when the words do not say it.
 */
export function capInRefusal(message: string): bigint | null {
  const match = /configured cap \(([0-9]+)(?:\.([0-9]{1,17}))? ether\)/i.exec(message);
  if (!match) return null;
  const digits = match[2] ?? "";
  const printed = BigInt(match[1]!) * DEFAULT_TX_FEE_CAP + BigInt(digits.padEnd(18, "0"));
  const halfLastDigit = 5n * 10n ** BigInt(17 - digits.length);
  return printed > halfLastDigit ? printed - halfLastDigit : null;
}

/** Whether a transaction of this gas limit and max fee stays within the cap. */
export function withinTxFeeCap(gasLimit: bigint, maxFeePerGas: bigint, cap: bigint): boolean {
  return gasLimit * maxFeePerGas <= cap;
}
