import type { Schemas } from "./api";

/** A swept sweep's cost against the classic top-up and transfer it replaces, in wei at the batch's gas price. */
export interface FeeComparison {
  gasPrice: bigint;
  /** what the classic transfer would have cost: classic_gas at the batch's gas price */
  classicCost: bigint;
  /** the sweep's share of the batch's gas */
  gasCost: bigint;
  fee: bigint;
  /** gas and fee: what the sweep cost the partner */
  total: bigint;
  /** classic cost minus the total; below zero would mean the sweep cost more */
  saved: bigint;
}

/** Undefined until the sweep is swept with its gas, fee and benchmark (the API gives them only then). */
export function compareFee(sweep: Pick<Schemas["Sweep"], "gas" | "gas_cost" | "fee" | "classic_gas">): FeeComparison | undefined {
  if (!sweep.gas || sweep.gas_cost === undefined || sweep.fee === undefined || sweep.classic_gas === undefined) return undefined;
  const gasCost = BigInt(sweep.gas_cost);
  const gasPrice = gasCost / BigInt(sweep.gas);
  const classicCost = BigInt(sweep.classic_gas) * gasPrice;
  const fee = BigInt(sweep.fee);
  const total = gasCost + fee;
  return { gasPrice, classicCost, gasCost, fee, total, saved: classicCost - total };
}
