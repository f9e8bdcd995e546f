import type { Tx } from "@sweep/db";
import { states } from "@sweep/lifecycle";
import type { WaitReason } from "../batch-plan";
import type { PolicyHold, PolicyRules } from "./policy-rules";

/**
 * A sweep a policy holds is judged again after this pause, not at every round: each judgement reads
 * its address on chain. A few blocks on the fastest chains, well within a gas price's swing.
 */
export const POLICY_RECHECK_MS = 3_000;

const HOLDS: ReadonlySet<WaitReason> = new Set<PolicyHold>(["waiting_for_gas_price", "cost_above_limit"]);

/** The rules of the partner's policies on the chain for these tickers, by ticker. */
export async function policyRulesOf(tx: Tx, scope: { partnerId: string; chainId: number }, tokens: readonly string[]): Promise<Map<string, PolicyRules>> {
  if (tokens.length === 0) return new Map();
  const policies = await tx.sweepPolicy.findMany({
    where: { partnerId: scope.partnerId, chainId: scope.chainId, token: { in: [...new Set(tokens)] } },
    select: { token: true, maxFeePerGas: true, maxCostBps: true, tokenValueWei: true, tokenDecimals: true },
  });
  return new Map(
    policies.map((p) => [
      p.token,
      {
        maxFeePerGas: p.maxFeePerGas === null ? null : BigInt(p.maxFeePerGas.toFixed(0)),
        maxCostBps: p.maxCostBps,
        tokenValue: p.tokenValueWei === null || p.tokenDecimals === null ? null : { wei: BigInt(p.tokenValueWei.toFixed(0)), decimals: p.tokenDecimals },
      },
    ]),
  );
}

/**
 * The policy sweeps the plan held: queued, with the reason that says why (GET /v1/sweeps/{id}), not
 * due again before POLICY_RECHECK_MS. The claim that takes one later clears its reason.
 */
export async function holdPolicySweeps(tx: Tx, waiting: ReadonlyArray<{ sweepId: string; reason: WaitReason }>): Promise<void> {
  for (const reason of HOLDS) {
    const ids = waiting.filter((w) => w.reason === reason).map((w) => w.sweepId);
    if (ids.length === 0) continue;
    await tx.$executeRaw`
      UPDATE sweeps SET reason = ${reason}, next_attempt_at = now() + ${`${POLICY_RECHECK_MS} milliseconds`}::interval, updated_at = now()
       WHERE id = ANY(${ids}::uuid[]) AND status = ${states.sweep.queued}::"WorkStatus"`;
  }
}
