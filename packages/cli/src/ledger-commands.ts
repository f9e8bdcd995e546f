import { randomUUID } from "node:crypto";
import { environmentChainIds } from "@sweep/chains";
import { toBigInt, toDecimal } from "@sweep/db";
import type { CommandContext } from "./context";
import { parseChainId } from "./ids";
import { findPartner } from "./partner-commands";

/** DECIMAL(78,0) holds at most 78 digits. */
const MAX_AMOUNT_DIGITS = 78;
const MAX_NOTE_LENGTH = 500;

export type Adjustment = "charge" | "credit";

export interface AdjustmentOptions {
  chain: string;
  amount: string;
  note: string;
}

/**
 * `ledger charge|credit PARTNER --chain ID --amount WEI --note TEXT`: one entry under the
 * partner's agreement on that chain. A charge adds to the fees due (fee_charge, −WEI), a credit
 * takes from them (fee_credit, +WEI). Each run books a new entry: there is no transaction to
 * deduplicate on, so the dedupe key is a fresh UUID.
 */
export async function bookAdjustment(ctx: CommandContext, adjustment: Adjustment, partnerId: string, options: AdjustmentOptions): Promise<void> {
  const amount = parseWei(options.amount);
  const note = options.note.trim();
  if (note === "" || note.length > MAX_NOTE_LENGTH) throw new Error(`--note takes 1 to ${MAX_NOTE_LENGTH} characters: say why the partner is ${adjustment}d`);
  const chainId = parseChainId(options.chain);
  const partner = await findPartner(ctx.db, partnerId);
  // ENV_CHAINS describes SERVICE_ENV: a partner of the other environment is checked against that environment's own chains.
  const configured = partner.environment === ctx.config.SERVICE_ENV;
  const chainIds = environmentChainIds(partner.environment, configured ? process.env : {});
  if (!chainIds.includes(chainId)) {
    const hint = configured ? "" : `; for a chain its ENV_CHAINS adds, run with SERVICE_ENV=${partner.environment} and that environment's ENV_CHAINS`;
    throw new Error(`chain ${options.chain} is not a chain of partner ${partner.id}'s ${partner.environment} environment (${chainIds.join(", ")}${hint})`);
  }

  const kind = adjustment === "charge" ? "fee_charge" : "fee_credit";
  const entry = await ctx.db.ledgerEntry.create({
    data: {
      partnerId: partner.id,
      chainId,
      kind,
      amount: toDecimal(adjustment === "charge" ? -amount : amount),
      note,
      dedupeKey: `${adjustment}:${randomUUID()}`,
    },
  });
  const signed = toBigInt(entry.amount).toString();
  ctx.out.result(
    {
      id: Number(entry.id),
      partner_id: entry.partnerId,
      chain_id: entry.chainId,
      kind: entry.kind,
      amount: signed,
      tx_hash: entry.txHash,
      sweep_id: entry.sweepId,
      note: entry.note,
      created_at: entry.createdAt.toISOString(),
    },
    [`ledger entry ${entry.id}: ${entry.kind} ${signed} wei on chain ${entry.chainId} for partner ${partner.id} (${partner.name})`, `note  ${entry.note}`],
  );
}

/** A positive whole number of wei, digits only: no sign, decimal point or exponent. */
export function parseWei(value: string): bigint {
  if (!/^[0-9]+$/.test(value) || value.length > MAX_AMOUNT_DIGITS || BigInt(value) === 0n) {
    throw new Error(`--amount takes a positive whole number of wei, 1 to ${MAX_AMOUNT_DIGITS} digits, got ${JSON.stringify(value)}`);
  }
  return BigInt(value);
}
