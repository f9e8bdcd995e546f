import { environmentChainIds } from "@sweep/chains";
import { createDrainBatches } from "@sweep/db";
import { openAnnouncedBatch } from "@sweep/lifecycle";
import { queueNames } from "@sweep/messaging";
import { ZeroAddress, getAddress } from "ethers";
import type { CommandContext } from "./context";
import { parseChainId, requirePartnerId } from "./ids";

/**
 * `gas-wallet drain --partner ID --to ADDRESS [--chain ID]`: sends all a disabled partner's gas
 * wallet holds but the fees due, less the transfer's gas, to ADDRESS on each chain (the last step
 * of a key rotation, or of a partner leaving). Writes drain batches and their batch.ready messages
 * to the outbox; the chain's sender sends them and the ledger books each as its gas and a negative
 * topup. Refused, for every chain, while any chain has work in flight.
 */
export async function drainGasWallet(ctx: CommandContext, options: { partner: string; to: string; chain?: string }): Promise<void> {
  const partnerId = requirePartnerId(options.partner);
  const to = recipient(options.to);
  const chainId = options.chain === undefined ? undefined : parseChainId(options.chain);
  const environment = ctx.config.SERVICE_ENV;
  const names = queueNames(ctx.config.AMQP_PREFIX);
  const plan = await createDrainBatches(ctx.db, {
    environment,
    chainIds: environmentChainIds(environment),
    chainId,
    partnerId,
    to,
    openBatch: (tx, batch) => openAnnouncedBatch(tx, names, batch),
  });
  if (plan.refused.length > 0) {
    throw new Error(`not drained: ${plan.refused.map((r) => `chain ${r.chainId}: ${r.why}`).join("; ")}`);
  }
  ctx.out.result(
    { partner_id: partnerId, gas_wallet: plan.gasWallet, to, drains: plan.created.map((c) => ({ batch_id: c.batchId, chain_id: c.chainId, fees_due_kept: c.feesDue.toString() })) },
    plan.created.map((c) => `drain batch ${c.batchId}: the gas wallet ${plan.gasWallet} of partner ${partnerId} to ${to} on chain ${c.chainId}, keeping ${c.feesDue} wei of fees due`),
  );
  ctx.out.note("written to the outbox: the chain's sender sends what the wallet holds but the fees due and the transfer's gas; the ledger books it as gas and a negative topup");
}

function recipient(value: string): string {
  let address: string;
  try {
    address = getAddress(value);
  } catch {
    throw new Error(`--to takes an address, got ${JSON.stringify(value)}`);
  }
  if (address === ZeroAddress) throw new Error("--to cannot be the zero address");
  return address;
}
