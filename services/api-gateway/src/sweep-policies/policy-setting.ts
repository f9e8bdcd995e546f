import type { SweepPolicyRequest } from "@sweep/api-contract";
import { sweepPolicyViewSelect, type Db, type SweepPolicyView } from "@sweep/db";
import { checksumAddress, listedToken, servedChain, type GatewayChain } from "../chains";
import { ApiError } from "../http/api-error";

export interface SweepPolicyDeps {
  db: Db;
  chains: ReadonlyMap<number, GatewayChain>;
}

/**
 * PUT /v1/sweep-policies after the schema: the chain, the token, the hot wallet, the rules and the
 * schedule checked, then the policy of (chain, token) set in one upsert. Its next window is left to
 * the batcher's policy round, which keeps the one clock that opens them.
 */
export async function setSweepPolicy(deps: SweepPolicyDeps, partnerId: string, request: SweepPolicyRequest): Promise<SweepPolicyView> {
  const chain = servedChain(deps.chains, request.chain_id);
  const token = listedToken(chain, request.token);
  const hotWalletAddress = checksumAddress(request.hot_wallet);
  const hotWallet = await deps.db.hotWallet.findUnique({ where: { partnerId_chainId_address: { partnerId, chainId: chain.chainId, address: hotWalletAddress } }, select: { id: true } });
  if (!hotWallet) throw new ApiError("unknown_hot_wallet", `hot wallet ${hotWalletAddress} is not registered on chain ${chain.chainId}; register it with POST /v1/hot-wallets first`);
  if (request.max_cost_bps !== undefined && token.address !== null && request.token_value_wei === undefined) {
    throw new ApiError("invalid_amount", `max_cost_bps on ${token.ticker} needs token_value_wei: what one whole ${token.ticker} is worth in wei of ${chain.nativeTicker} (the service has no price feed)`);
  }
  const schedule = request.schedule ?? "asap";
  const scheduleAt = minuteOf(schedule, request.at);
  const decimals = token.address === null ? null : (chain.tokens.find((t) => t.address === token.address)?.decimals ?? null);

  const tokenValueWei = token.address === null ? null : (request.token_value_wei ?? null);
  // One statement: two PUTs of one policy at once both succeed, the later one's fields kept (Prisma's upsert reads
  // then writes, and the second insert would break the unique key).
  await deps.db.$executeRaw`
    INSERT INTO sweep_policies AS p (id, partner_id, chain_id, token, token_address, hot_wallet_id, enabled, min_balance, max_fee_per_gas, max_cost_bps,
                                     token_value_wei, token_decimals, schedule, schedule_at, next_run_at, updated_at)
    VALUES (gen_random_uuid(), ${partnerId}::uuid, ${chain.chainId}, ${token.ticker}, ${token.address}, ${hotWallet.id}::uuid, ${request.enabled ?? true},
            ${request.min_balance ?? "0"}::numeric, ${request.max_fee_per_gas ?? null}::numeric, ${request.max_cost_bps ?? null}::int,
            ${tokenValueWei}::numeric, ${decimals}::int, ${schedule}::"PolicySchedule", ${scheduleAt}, NULL, now())
    ON CONFLICT (partner_id, chain_id, token) DO UPDATE SET
      token_address = EXCLUDED.token_address, hot_wallet_id = EXCLUDED.hot_wallet_id, enabled = EXCLUDED.enabled, min_balance = EXCLUDED.min_balance,
      max_fee_per_gas = EXCLUDED.max_fee_per_gas, max_cost_bps = EXCLUDED.max_cost_bps, token_value_wei = EXCLUDED.token_value_wei,
      token_decimals = EXCLUDED.token_decimals, schedule = EXCLUDED.schedule, schedule_at = EXCLUDED.schedule_at, next_run_at = NULL, updated_at = now()`;
  return deps.db.sweepPolicy.findUniqueOrThrow({ where: { partnerId_chainId_token: { partnerId, chainId: chain.chainId, token: token.ticker } }, select: sweepPolicyViewSelect });
}

/** The minute a schedule opens at: of the hour (`:MM`), or of the day (`HH:MM`), UTC; 0 by default. */
function minuteOf(schedule: NonNullable<SweepPolicyRequest["schedule"]>, at: string | undefined): number {
  if (at === undefined) return 0;
  if (schedule === "asap") throw new ApiError("invalid_json", "at applies to hourly and daily schedules only; omit it for asap");
  const [hours, minutes] = at.split(":");
  if (schedule === "hourly") {
    if (hours !== "") throw new ApiError("invalid_json", `at must be :MM for an hourly schedule (the minute of each hour), got ${at}`);
    return Number(minutes);
  }
  if (hours === "") throw new ApiError("invalid_json", `at must be HH:MM for a daily schedule (UTC), got ${at}`);
  return Number(hours) * 60 + Number(minutes);
}
