import { effectiveFeeCeiling, gasPriceVerdict, type FeeCeiling } from "@sweep/fees";
import type { ChainProvider } from "@sweep/rpc";
import type { Logger } from "@sweep/common";
import { Prisma, partnerMaxFeePerGas, type Db } from "@sweep/db";
import { states, type WorkKind } from "@sweep/lifecycle";

/** The reason queued work shows (GET /v1/sweeps/{id}, /v1/revocations/{id}) while the base fee keeps its batch above its fee ceiling. */
export const WAITING_FOR_GAS_PRICE = "waiting_for_gas_price";

/**
 * Whether the chain's fees now keep a batch under `ceiling` from being sent (@sweep/fees'
 * gasPriceVerdict): one read of the latest block's base fee, and the node's suggested tip only when
 * it decides. Read before the checks' reads, so held work costs one call a round, not its accounts'.
 */
export async function heldForGasPrice(provider: ChainProvider, ceiling: FeeCeiling): Promise<{ held: boolean; baseFee: bigint }> {
  const block = await provider.getBlock("latest");
  if (block === null) throw new Error("the node returned no latest block");
  const baseFee = block.baseFeePerGas ?? 0n;
  let verdict = gasPriceVerdict(ceiling, baseFee);
  if (verdict === "ask_tip") verdict = gasPriceVerdict(ceiling, baseFee, BigInt((await provider.send("eth_maxPriorityFeePerGas", [])) as string));
  return { held: verdict === "hold", baseFee };
}

const tables: Record<WorkKind, Prisma.Sql> = { sweep: Prisma.raw("sweeps"), revocation: Prisma.raw("revocations") };

/**
 * Held work stays queued, its attempts untouched, with the reason that says why; the claim that
 * takes it when the base fee falls clears the reason (claimIntoBatch).
 */
export async function markWaitingForGasPrice(db: Db, kind: WorkKind, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return db.$executeRaw`
    UPDATE ${tables[kind]} SET reason = ${WAITING_FOR_GAS_PRICE}, updated_at = now()
     WHERE id = ANY(${[...ids]}::uuid[]) AND status = ${states.sweep.queued}::"WorkStatus" AND reason IS DISTINCT FROM ${WAITING_FOR_GAS_PRICE}`;
}

/**
 * A round's gate before its checks: the work goes on ("go", with the base fee read), waits queued for the base fee to fall
 * (marked waiting_for_gas_price), or the node did not answer ("chain_unavailable": nothing changes).
 * The ceiling is the chain's, lowered by the partner's own (its gas wallet sends the batch).
 */
export async function gasPriceGate(
  db: Db,
  provider: ChainProvider,
  work: { kind: WorkKind; partnerId: string; chainId: number; chainCeiling: FeeCeiling; ids: readonly string[] },
  logger: Logger,
): Promise<{ outcome: "go"; baseFee: bigint } | { outcome: "waiting_for_gas_price" | "chain_unavailable" }> {
  const ceiling = effectiveFeeCeiling(work.chainCeiling, await partnerMaxFeePerGas(db, { partnerId: work.partnerId }, work.chainId));
  let verdict;
  try {
    verdict = await heldForGasPrice(provider, ceiling);
  } catch (err) {
    logger.warn("chain unavailable reading its fees; nothing claimed, retried later", { error: err instanceof Error ? err.message : String(err) });
    return { outcome: "chain_unavailable" };
  }
  if (!verdict.held) return { outcome: "go", baseFee: verdict.baseFee };
  const newlyWaiting = await markWaitingForGasPrice(db, work.kind, work.ids);
  const fields = { baseFee: verdict.baseFee.toString(), maxFeePerGas: ceiling.maxFeePerGas.toString(), items: work.ids.length, newlyWaiting };
  // Said once when work starts waiting; each round of the wait after that only at debug.
  if (newlyWaiting > 0) logger.info("the base fee keeps the batch above its fee ceiling; the work waits queued", fields);
  else logger.debug("still waiting for the base fee to fall under the fee ceiling", fields);
  return { outcome: "waiting_for_gas_price" };
}
