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

  const fields = {
    tokenAddress: token.address,
    hotWalletId: hotWallet.id,
    enabled: request.enabled ?? true,
    minBalance: request.min_balance ?? "0",
    maxFeePerGas: request.max_fee_per_gas ?? null,
    maxCostBps: request.max_cost_bps ?? null,
    tokenValueWei: token.address === null ? null : (request.token_value_wei ?? null),
    tokenDecimals: decimals,
    schedule,
    scheduleAt,
    nextRunAt: null,
  };
  return deps.db.sweepPolicy.upsert({
    where: { partnerId_chainId_token: { partnerId, chainId: chain.chainId, token: token.ticker } },
    create: { partnerId, chainId: chain.chainId, token: token.ticker, ...fields },
    update: fields,
    select: sweepPolicyViewSelect,
  });
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
