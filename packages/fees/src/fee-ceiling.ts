import type { VariableCheck } from "@sweep/common";

/** Ceilings on a transaction's EIP-1559 fees, wei per gas. */
export interface FeeCeiling {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** A chain's ceilings, and which of them its variables set (the others are the defaults below). */
export interface ChainFeeCeiling extends FeeCeiling {
  configured: { maxFeePerGas: boolean; maxPriorityFeePerGas: boolean };
}

const gwei = 1_000_000_000n;

/**
 * Ceilings where `MAX_FEE_PER_GAS_<id>` / `MAX_PRIORITY_FEE_PER_GAS_<id>` are not set: far above
 * what each chain asks on a calm day (Sepolia and Ethereum a few gwei of base fee; BSC and its
 * testnet 0.1 to 3 gwei; the OP-stack chains and Arbitrum hundredths of a gwei, Arbitrum ignoring
 * the tip), low enough that a runaway replacement stops within a few bumps of them. Testnet
 * defaults; a mainnet operator sets both (`configured` tells them apart), and a chain without a
 * default must set both.
 */
export const DEFAULT_FEE_CEILINGS: Readonly<Record<number, FeeCeiling>> = {
  1: { maxFeePerGas: 100n * gwei, maxPriorityFeePerGas: 5n * gwei },
  11155111: { maxFeePerGas: 100n * gwei, maxPriorityFeePerGas: 10n * gwei },
  56: { maxFeePerGas: 10n * gwei, maxPriorityFeePerGas: 3n * gwei },
  97: { maxFeePerGas: 20n * gwei, maxPriorityFeePerGas: 10n * gwei },
  10: { maxFeePerGas: 2n * gwei, maxPriorityFeePerGas: gwei / 10n },
  11155420: { maxFeePerGas: 2n * gwei, maxPriorityFeePerGas: gwei / 10n },
  8453: { maxFeePerGas: 2n * gwei, maxPriorityFeePerGas: gwei / 10n },
  84532: { maxFeePerGas: 2n * gwei, maxPriorityFeePerGas: gwei / 10n },
  42161: { maxFeePerGas: 2n * gwei, maxPriorityFeePerGas: gwei / 100n },
  421614: { maxFeePerGas: 2n * gwei, maxPriorityFeePerGas: gwei / 100n },
};

const maxUint256 = (1n << 256n) - 1n;

function weiVariable(variable: string, value: string | undefined): bigint | undefined {
  if (!value) return undefined;
  if (!/^[0-9]+$/.test(value) || BigInt(value) === 0n || BigInt(value) > maxUint256) throw new Error(`${variable} must be a whole number of wei above zero, in decimal digits`);
  return BigInt(value);
}

/** `MAX_FEE_PER_GAS_<chain_id>` and `MAX_PRIORITY_FEE_PER_GAS_<chain_id>`, each else its default (required on a chain without one). */
export function configuredFeeCeiling(chainId: number, env: NodeJS.ProcessEnv, check: VariableCheck): ChainFeeCeiling {
  const fallback = DEFAULT_FEE_CEILINGS[chainId];
  const read = (variable: string, what: string) =>
    check(() => {
      const value = weiVariable(variable, env[variable]);
      if (value === undefined && !fallback) throw new Error(`${variable} is required: chain ${chainId} has no default ${what}, in wei`);
      return value;
    });
  const maxFee = read(`MAX_FEE_PER_GAS_${chainId}`, "ceiling on the fee per gas");
  const maxTip = read(`MAX_PRIORITY_FEE_PER_GAS_${chainId}`, "ceiling on the tip per gas");
  return {
    maxFeePerGas: maxFee ?? fallback?.maxFeePerGas ?? 0n,
    maxPriorityFeePerGas: maxTip ?? fallback?.maxPriorityFeePerGas ?? 0n,
    configured: { maxFeePerGas: maxFee !== undefined, maxPriorityFeePerGas: maxTip !== undefined },
  };
}

/** The ceilings a gas wallet's transactions keep to: the chain's, lowered by its partner's own max fee on the chain (null: none). */
export function effectiveFeeCeiling(chain: FeeCeiling, partnerMaxFeePerGas: bigint | null): FeeCeiling {
  const maxFeePerGas = partnerMaxFeePerGas !== null && partnerMaxFeePerGas < chain.maxFeePerGas ? partnerMaxFeePerGas : chain.maxFeePerGas;
  return { maxFeePerGas, maxPriorityFeePerGas: chain.maxPriorityFeePerGas < maxFeePerGas ? chain.maxPriorityFeePerGas : maxFeePerGas };
}

/** The tip a new transaction offers: the node's suggestion, never above the tip ceiling. */
export function offeredTip(suggested: bigint, ceiling: Pick<FeeCeiling, "maxPriorityFeePerGas">): bigint {
  return suggested < ceiling.maxPriorityFeePerGas ? suggested : ceiling.maxPriorityFeePerGas;
}

/** Whether work is sent now, held, or needs the node's suggested tip to decide. */
export type GasPriceVerdict = "send" | "hold" | "ask_tip";

/**
 * The hold rule: a new transaction is sent only when its max fee at the ceiling still pays the
 * current base fee plus the tip it would offer (the node's suggestion, capped by the tip ceiling);
 * otherwise it would sit unmined at its ceiling, and the work waits for the base fee to fall.
 * The tip is asked for only when it decides: never when even a tip of 0 or the whole tip ceiling settles it.
 */
export function gasPriceVerdict(ceiling: FeeCeiling, baseFee: bigint, tip?: bigint): GasPriceVerdict {
  if (ceiling.maxFeePerGas < baseFee) return "hold";
  if (ceiling.maxFeePerGas >= baseFee + ceiling.maxPriorityFeePerGas) return "send";
  if (tip === undefined) return "ask_tip";
  return ceiling.maxFeePerGas >= baseFee + offeredTip(tip, ceiling) ? "send" : "hold";
}
