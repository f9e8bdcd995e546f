import { estimateFailureReason, isUnsupportedMethod, nodeMessage, type CallRequest, type ChainClient } from "@sweep/rpc";
import type { Logger } from "@sweep/common";
import { BATCH_GAS_TOO_LOW_SELECTOR, contractAt, decodeSweepOutcomes, encodeSweepBatch, type SweepOutcome } from "@sweep/contracts";
import { AttemptFailure } from "./attempt-failure";
import type { DeployBatchToSend, RevocationBatchToSend, SweepBatchToSend, WithdrawalBatchToSend } from "../batch-types";
import type { FeeMarket } from "../fees";
import { TRANSACTION_GAS_CAP, gasLimitFromEstimate, gasLimitFromSimulation } from "./gas-limit";
import { revocationAuthorizations } from "./revocation-plan";
import type { TransactionContent } from "../signing";
import { authorizationList, planItems, splitBySimulation } from "./sweep-plan";

export type Content = Pick<TransactionContent, "to" | "data" | "authorizationList">;

/** What building a batch's transaction may read: the node at the attempt's block, and the sender's settings. */
export interface ContentContext {
  /** the node, every read at the attempt's block */
  client: ChainClient;
  /** the gas wallet */
  from: string;
  /** read beside the simulation; awaited only by what needs it */
  market: Promise<FeeMarket & { blockGasLimit: bigint }>;
  /** headroom on the gas estimate, basis points */
  gasLimitMarginBps: number;
  /** where withdrawals of this chain go; null fails them (internal) */
  treasury: string | null;
  /** the chain's delegate factory */
  factory: string;
  /** lower-case addresses of the chain's tokens marked FEE_ON_TRANSFER_: their sweeps book what the hot wallet received */
  feeOnTransferTokens: ReadonlySet<string>;
  logger: Logger;
}

/**
 * A batch's transaction, or none (`content` null: nothing left to send), with the sweeps the
 * simulation left out; its gas limit is asked for after, so a failing estimate still reports them.
 */
export interface PlannedContent {
  content: Content | null;
  dropped: string[];
  gasLimit: () => Promise<bigint>;
}

const NOTHING: PlannedContent = { content: null, dropped: [], gasLimit: () => Promise.resolve(0n) };

/**
 * A sweep batch's call to its delegate with the items that would fail left out (simulated with
 * eth_simulateV1), and its gas limit from the simulation. On a node without eth_simulateV1 every
 * item goes: the delegate reports a failing item without reverting the batch, so it then ends
 * failed instead of rejected.
 */
export async function sweepContent(ctx: ContentContext, batch: SweepBatchToSend): Promise<PlannedContent> {
  const { from, logger } = ctx;
  const planned = planItems(batch.items, ctx.feeOnTransferTokens);
  if (planned.length === 0) return NOTHING;
  const all = { to: batch.delegate, data: encodeSweepBatch(planned.map((p) => p.item)), authorizationList: authorizationList(planned, planned) };
  const withGas = (content: Content, gasUsed: bigint | null, dropped: string[]): PlannedContent => ({ content, dropped, gasLimit: () => sweepGasLimit(ctx, content, gasUsed) });
  let simulated;
  try {
    simulated = await simulate(ctx, batch, { from, ...all });
  } catch (err) {
    if (!isUnsupportedMethod(err)) throw err;
    logger.warn("the node has no eth_simulateV1; sending every item unsimulated");
    return withGas(all, null, []);
  }
  const split = splitBySimulation(planned, simulated.outcomes);
  if (!split) throw new AttemptFailure("internal", "the simulated outcomes do not match the batch items");
  const dropped = split.dropped.map((p) => p.sweepId);
  if (split.kept.length === 0) return { ...NOTHING, dropped };
  if (dropped.length === 0) return withGas(all, simulated.gasUsed, dropped);
  const kept = { to: batch.delegate, data: encodeSweepBatch(split.kept.map((p) => p.item)), authorizationList: authorizationList(planned, split.kept) };
  // Without the dropped items the batch uses less gas; the kept ones are simulated again for it.
  const keptGas = await unlessUnsupported(() => simulate(ctx, batch, { from, ...kept }), logger);
  return withGas(kept, keptGas?.gasUsed ?? null, dropped);
}

/** The gas wallet sends the revocations' authorizations to itself; no eth_simulateV1, as nothing would report per-item outcomes. */
export function revocationContent(ctx: ContentContext, batch: RevocationBatchToSend): PlannedContent {
  if (batch.items.length === 0) return NOTHING;
  // An unreadable authorization fails the attempt (internal): the revocations go back to queued and the batcher's check rejects that one invalid_authorization.
  const authorizations = revocationAuthorizations(batch.items);
  if (!authorizations) throw new AttemptFailure("internal", "a revocation's stored authorization cannot be read");
  return estimated(ctx, { to: ctx.from, data: "0x", authorizationList: authorizations });
}

/** The factory's deploy of the hot wallet's delegate, operated by the gas wallet. */
export function deploymentContent(ctx: ContentContext, batch: DeployBatchToSend): PlannedContent {
  const factory = contractAt("DelegateFactory", ctx.factory);
  return estimated(ctx, { to: ctx.factory, data: factory.interface.encodeFunctionData("deploy", [batch.hotWallet, batch.gasWallet.address]), authorizationList: [] });
}

/**
 * A plain transfer: of the fees due to the treasury, or, a drain, of the rest of the balance to the
 * address it names. Its gas is estimated, never assumed 21,000: the recipient may be a contract (a
 * smart account), and Arbitrum counts a transfer's L1 calldata in its gas.
 */
export function withdrawalContent(ctx: ContentContext, batch: WithdrawalBatchToSend): PlannedContent {
  if (batch.drainTo !== null) return estimated(ctx, { to: batch.drainTo, data: "0x", authorizationList: [] });
  if (!ctx.treasury) {
    ctx.logger.error(`TREASURY_ADDRESS_${batch.chainId} is not set: the fees due cannot be withdrawn on this chain`);
    throw new AttemptFailure("internal", `no treasury address for chain ${batch.chainId}`);
  }
  return estimated(ctx, { to: ctx.treasury, data: "0x", authorizationList: [] });
}

function estimated(ctx: ContentContext, content: Content): PlannedContent {
  return { content, dropped: [], gasLimit: () => estimatedGasLimit(ctx, content) };
}

/** eth_simulateV1 of a sweep batch: its per-item outcomes and gas; a reverted batch fails the attempt. */
async function simulate(ctx: ContentContext, batch: SweepBatchToSend, call: CallRequest & { gas?: bigint }): Promise<{ outcomes: SweepOutcome[]; gasUsed: bigint }> {
  const simulated = await ctx.client.simulate(call);
  if (!simulated.succeeded) {
    const tooBig = simulated.returnData.toLowerCase().startsWith(BATCH_GAS_TOO_LOW_SELECTOR);
    throw new AttemptFailure(tooBig ? "gas_limit_exceeded" : "internal", `the simulated batch reverted with ${simulated.returnData.slice(0, 10)}`);
  }
  return { outcomes: decodeSweepOutcomes(simulated.logs, batch.delegate), gasUsed: simulated.gasUsed };
}

/**
 * A sweep batch's gas limit from its simulated gas, checked by one more simulation at that limit
 * (every item must still sweep); eth_estimateGas only when that check fails or nothing was simulated.
 */
async function sweepGasLimit(ctx: ContentContext, content: Content, gasUsed: bigint | null): Promise<bigint> {
  const { client, from, logger } = ctx;
  if (gasUsed !== null) {
    const gasLimit = gasLimitFromSimulation(gasUsed, ctx.gasLimitMarginBps, (await ctx.market).blockGasLimit);
    const check = await unlessUnsupported(() => client.simulate({ from, ...content, gas: gasLimit }), logger);
    const outcomes = check?.succeeded ? decodeSweepOutcomes(check.logs, content.to) : [];
    if (outcomes.length > 0 && outcomes.every((o) => o.swept)) return gasLimit;
    if (check) logger.warn("the gas limit from the simulation fell short; asking eth_estimateGas", { gasLimit: gasLimit.toString(), gasUsed: gasUsed.toString() });
  }
  return estimatedGasLimit(ctx, content);
}

/** eth_estimateGas plus headroom; a refusal, or more than the block or the cap holds, fails the attempt. */
async function estimatedGasLimit(ctx: ContentContext, content: Content): Promise<bigint> {
  let estimate: bigint;
  try {
    estimate = await ctx.client.estimateGas({ from: ctx.from, ...content });
  } catch (err) {
    throw new AttemptFailure(estimateFailureReason(err), `gas estimate refused: ${nodeMessage(err)}`);
  }
  const { blockGasLimit } = await ctx.market;
  const ceiling = blockGasLimit < TRANSACTION_GAS_CAP ? blockGasLimit : TRANSACTION_GAS_CAP;
  if (estimate > ceiling) throw new AttemptFailure("gas_limit_exceeded", `needs ${estimate} gas, a transaction may use ${ceiling}`);
  return gasLimitFromEstimate(estimate, ctx.gasLimitMarginBps, blockGasLimit);
}

/**
 * A simulation after the first, or null where it meets a node without eth_simulateV1: behind a
 * load-balanced endpoint the backends differ, and the one that answered the first may not answer
 * the next (the gas then comes from eth_estimateGas).
 */
async function unlessUnsupported<T>(simulate: () => Promise<T>, logger: Logger): Promise<T | null> {
  try {
    return await simulate();
  } catch (err) {
    if (!isUnsupportedMethod(err)) throw err;
    logger.warn("a node behind the endpoint has no eth_simulateV1; the gas limit comes from eth_estimateGas");
    return null;
  }
}
