import { environmentChainIds } from "@sweep/chains";
import { createWithdrawalBatches } from "@sweep/db";
import { openAnnouncedBatch } from "@sweep/lifecycle";
import { queueNames } from "@sweep/messaging";
import type { CommandContext } from "./context";
import { parseChainId } from "./ids";

/**
 * `fees withdraw [--chain ID]`: a withdrawal batch for each gas wallet of the environment with
 * fees due on the chain (every chain of the environment without --chain), unless one is under
 * way. The command only writes the batches and their batch.ready messages to the outbox; the
 * outbox relay of any running service publishes them, and the chain's sender sends each to the
 * treasury.
 */
export async function withdrawFees(ctx: CommandContext, options: { chain?: string }): Promise<void> {
  const chainId = options.chain === undefined ? undefined : parseChainId(options.chain);
  const environment = ctx.config.SERVICE_ENV;
  const names = queueNames(ctx.config.AMQP_PREFIX);
  const created = await createWithdrawalBatches(ctx.db, {
    environment,
    chainIds: environmentChainIds(environment),
    chainId,
    openBatch: (tx, batch) => openAnnouncedBatch(tx, names, batch),
  });
  const partners = await ctx.db.partner.findMany({ where: { id: { in: created.map((c) => c.partnerId) } }, select: { id: true, name: true } });
  const nameOf = new Map(partners.map((p) => [p.id, p.name]));
  ctx.out.result(
    {
      withdrawals: created.map((c) => ({ batch_id: c.batchId, partner_id: c.partnerId, chain_id: c.chainId, fees_due: c.feesDue.toString() })),
    },
    created.length === 0
      ? ["nothing to withdraw"]
      : created.map((c) => `withdrawal batch ${c.batchId}: ${c.feesDue} wei of fees due on chain ${c.chainId} from partner ${c.partnerId} (${nameOf.get(c.partnerId)})`),
  );
  if (created.length > 0) ctx.out.note("written to the outbox: the outbox relay of any running service publishes them to the chain-sender");
}
