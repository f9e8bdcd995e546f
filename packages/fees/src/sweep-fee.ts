import { NATIVE_TRANSFER_GAS, type ChainTariff } from "./tariff";
/** How a sweep went in its batch (the spec's kind): a token measured against its classic benchmark for a new account with first_new. */
export type SweepKind = "repeat" | "first" | "first_new";

const BPS = 10_000n;

/**
 * The classic sweep's transactions, each of them under Fjord's 100-byte floor of L1 data, so each
 * paying a block's least L1 fee on an OP-stack chain: a token's top-up and the address's own transfer;
 * the native coin's own transfer.
 */
const CLASSIC_TOKEN_TRANSACTIONS = 2n;
const CLASSIC_NATIVE_TRANSACTIONS = 1n;

function nonNegative(values: Record<string, bigint | number>): void {
  for (const [name, value] of Object.entries(values)) if (value < 0) throw new RangeError(`${name} cannot be negative, got ${value}`);
}

/**
 * Token sweep: max(0, rate_bps/10000 × (classic_gas × gas_price + 2 × minimum_l1_fee) − (sweep_gas ×
 * gas_price + l1_fee)), computed exactly in basis points and rounded down once, at the end (the
 * partner never pays a fraction of a wei). On an OP-stack chain (0 elsewhere) `l1Fee` is the item's
 * share of the batch's L1 data fee, a cost of the sweep, and `minimumL1Fee` the block's least L1
 * fee, which each of the classic sweep's two transactions would have paid.
 */
export function tokenSweepFee(input: { rateBps: number; classicGas: bigint; sweepGas: bigint; gasPrice: bigint; l1Fee: bigint; minimumL1Fee: bigint }): bigint {
  nonNegative(input);
  const classicCost = input.classicGas * input.gasPrice + CLASSIC_TOKEN_TRANSACTIONS * input.minimumL1Fee;
  const savedBpsWei = BigInt(input.rateBps) * classicCost - BPS * (input.sweepGas * input.gasPrice + input.l1Fee);
  return savedBpsWei > 0n ? savedBpsWei / BPS : 0n;
}

/**
 * Native coin sweep: native_markup_bps/10000 × (sweep_gas × gas_price + l1_fee), rounded down, and
 * never more than the sweep saves against a plain transfer: (21000 − sweep_gas) × gas_price +
 * minimum_l1_fee − l1_fee, not below zero (on an OP-stack chain, 0 elsewhere: `l1Fee` the item's share
 * of the batch's L1 data fee, `minimumL1Fee` the block's least L1 fee, the plain transfer's).
 */
export function nativeSweepFee(input: { markupBps: number; sweepGas: bigint; gasPrice: bigint; l1Fee: bigint; minimumL1Fee: bigint }): bigint {
  nonNegative(input);
  const markup = (BigInt(input.markupBps) * (input.sweepGas * input.gasPrice + input.l1Fee)) / BPS;
  const saved = (NATIVE_TRANSFER_GAS - input.sweepGas) * input.gasPrice + CLASSIC_NATIVE_TRANSACTIONS * input.minimumL1Fee - input.l1Fee;
  if (saved <= 0n) return 0n;
  return markup < saved ? markup : saved;
}

export interface SweepFee {
  fee: bigint;
  /** the benchmark the fee was computed with; null when the tariff has none for the token */
  classicGas: bigint | null;
  /** the rate used: rate_bps for tokens, native_markup_bps for the native coin */
  rateBps: number;
}

/**
 * The fee of one swept item under a tariff. Tokens are measured against the classic benchmark of
 * their ticker (`new` when the sweep created the account, `existing` otherwise); a token without a
 * benchmark carries no fee. The native coin is measured against the plain 21,000-gas transfer.
 */
export function sweepFee(tariff: Pick<ChainTariff, "rateBps" | "nativeMarkupBps" | "classicGas">, sweep: { token: string; native: boolean; kind: SweepKind; gas: bigint; gasPrice: bigint; l1Fee: bigint; minimumL1Fee: bigint }): SweepFee {
  if (sweep.native) {
    return { fee: nativeSweepFee({ markupBps: tariff.nativeMarkupBps, sweepGas: sweep.gas, gasPrice: sweep.gasPrice, l1Fee: sweep.l1Fee, minimumL1Fee: sweep.minimumL1Fee }), classicGas: NATIVE_TRANSFER_GAS, rateBps: tariff.nativeMarkupBps };
  }
  const benchmark = tariff.classicGas?.[sweep.token];
  if (!benchmark) return { fee: 0n, classicGas: null, rateBps: tariff.rateBps };
  const classicGas = sweep.kind === "first_new" ? benchmark.new : benchmark.existing;
  return { fee: tokenSweepFee({ rateBps: tariff.rateBps, classicGas, sweepGas: sweep.gas, gasPrice: sweep.gasPrice, l1Fee: sweep.l1Fee, minimumL1Fee: sweep.minimumL1Fee }), classicGas, rateBps: tariff.rateBps };
}
