import { bpsToPercent } from "./percent";
import type { ChainBalance, ChainTariff, Deposit, DepositAddress, SweepPolicy, HotWallet, LedgerEntry, LedgerPaidFor, Revocation, Settings, Sweep, Webhook, WebhookDelivery } from "./responses";
import type { ledgerKinds } from "./scalars";

/**
 * Database rows to API JSON, for the gateway and the webhook dispatcher alike. The row types are
 * the columns the presenters read, so a Prisma row fits without this package depending on Prisma.
 *
 * Addresses pass through as stored: every address column is written EIP-55 (prisma/schema.prisma),
 * and checksumming again would cost a keccak per address, some 20 ms on a page of 200 sweeps.
 */

/** Prisma's Decimal, as far as a whole number is read from it (toFixed: never exponent notation). */
export interface WholeDecimal {
  toFixed(decimalPlaces: number): string;
}

export interface HotWalletRow {
  chainId: number;
  address: string;
  delegate: string;
  status: HotWallet["status"];
  error: string | null;
  txHash: string | null;
  createdAt: Date;
}

export interface SweepPolicyRow {
  chainId: number;
  token: string;
  tokenAddress: string | null;
  hotWallet: { address: string };
  enabled: boolean;
  minBalance: WholeDecimal;
  maxFeePerGas: WholeDecimal | null;
  maxCostBps: number | null;
  tokenValueWei: WholeDecimal | null;
  schedule: SweepPolicy["schedule"];
  /** hourly: minute of the hour; daily: minute of the day */
  scheduleAt: number;
  nextRunAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface DepositRow {
  id: string;
  chainId: number;
  address: string;
  token: string;
  tokenAddress: string | null;
  amount: WholeDecimal;
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  status: Deposit["status"];
  detectedAt: Date;
  confirmedAt: Date | null;
}

export interface DepositAddressRow {
  chainId: number;
  address: string;
  delegation: DepositAddress["delegation"];
  delegate: string | null;
  /** the stored authorization: its nonce is shown */
  authorization: unknown;
  lastActivityAt: Date | null;
  compromisedTxHash: string | null;
  compromisedBlock: bigint | null;
  /** newest first */
  deposits: readonly DepositRow[];
  createdAt: Date;
  updatedAt: Date;
}

export interface SweepRow {
  id: string;
  externalId: string | null;
  chainId: number;
  /** the relation, selected with the row */
  hotWallet: { address: string };
  account: string;
  token: string;
  tokenAddress: string | null;
  amount: WholeDecimal | null;
  keepOneUnit: boolean;
  status: string;
  reason: string | null;
  attempts: number;
  sweptAmount: WholeDecimal | null;
  txHash: string | null;
  kind: Sweep["kind"] | null;
  gas: bigint | null;
  gasCost: WholeDecimal | null;
  fee: WholeDecimal | null;
  classicGas: bigint | null;
  rateBps: number | null;
  createdBy: "partner" | "policy";
  createdAt: Date;
  updatedAt: Date;
}

export interface RevocationRow {
  id: string;
  externalId: string | null;
  chainId: number;
  account: string;
  status: string;
  reason: string | null;
  attempts: number;
  txHash: string | null;
  gas: bigint | null;
  gasCost: WholeDecimal | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface LedgerEntryRow {
  id: bigint;
  chainId: number;
  kind: (typeof ledgerKinds)[number];
  amount: WholeDecimal;
  txHash: string | null;
  sweepId: string | null;
  note: string | null;
  createdAt: Date;
  /** the gas wallet's balance by the ledger once the entry is booked */
  balanceAfter: bigint;
  /** a gas entry's transaction: what it carried */
  paidFor: LedgerPaidFor | null;
}

export interface WebhookRow {
  url: string;
  secret: string;
  /** until when deliveries are also signed with the secret before the last rotation */
  previousSecretUntil: Date | null;
}

export interface LowBalanceAlertRow {
  chainId: number;
  threshold: WholeDecimal;
  low: boolean;
}

export interface WebhookDeliveryRow {
  eventId: string;
  status: WebhookDelivery["status"];
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  /** the relation, selected with the row: its type, and when it happened */
  event: { type: string; createdAt: Date };
}

/** What a chain is called, as the registry names it. */
export interface ChainNames {
  chainId: number;
  name: string;
  nativeTicker: string;
}

/** A chain's tariff as the fees are computed with it (a partner's agreement applied). */
export interface TariffFigures {
  rateBps: number;
  nativeMarkupBps: number;
  classicGas?: Record<string, { new: bigint; existing: bigint }>;
  extraGas?: { delegation: bigint; account: bigint };
}

/** The fee reserve of a gas wallet on a chain, from the ledger (accrued is below zero when credits exceed the fees). */
export interface FeeFigures {
  accrued: bigint;
  withdrawn: bigint;
  due: bigint;
}

const digits = (value: WholeDecimal) => value.toFixed(0);

/** Gas fits a JSON integer (int64 in the spec; far below 2^53 in practice). */
const gasNumber = (value: bigint) => Number(value);

/** Keeps only the fields that have a value: the spec omits optional fields without one. */
function present<T extends object>(fields: { [K in keyof T]: T[K] | undefined | null }): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null)) as T;
}

function mapped<V, R>(value: V | null, map: (v: V) => R): R | undefined {
  return value === null ? undefined : map(value);
}

export function presentHotWallet(row: HotWalletRow): HotWallet {
  return present<HotWallet>({
    chain_id: row.chainId,
    address: row.address,
    delegate: row.delegate,
    status: row.status,
    error: row.status === "failed" ? row.error : undefined,
    tx_hash: row.txHash,
    created_at: row.createdAt.toISOString(),
  });
}

export function presentDepositAddress(row: DepositAddressRow): DepositAddress {
  const nonce = (row.authorization as { nonce?: unknown } | null)?.nonce;
  return present<DepositAddress>({
    chain_id: row.chainId,
    address: row.address,
    delegation: row.delegation,
    delegate: row.delegation === "authorized" || row.delegation === "delegated" ? row.delegate : undefined,
    authorization_nonce: row.delegation === "authorized" && typeof nonce === "number" ? nonce : undefined,
    compromised: row.delegation === "compromised" && row.compromisedTxHash !== null && row.compromisedBlock !== null ? { tx_hash: row.compromisedTxHash, block_number: Number(row.compromisedBlock) } : undefined,
    last_activity_at: row.lastActivityAt?.toISOString(),
    recent_deposits: row.deposits.map(presentDeposit),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  });
}

export function presentSweepPolicy(row: SweepPolicyRow): SweepPolicy {
  const two = (n: number) => String(n).padStart(2, "0");
  return present<SweepPolicy>({
    chain_id: row.chainId,
    token: row.token,
    token_address: row.tokenAddress,
    hot_wallet: row.hotWallet.address,
    enabled: row.enabled,
    min_balance: row.minBalance.toFixed(0),
    max_fee_per_gas: mapped(row.maxFeePerGas, (d) => d.toFixed(0)),
    max_cost_bps: row.maxCostBps,
    token_value_wei: mapped(row.tokenValueWei, (d) => d.toFixed(0)),
    schedule: row.schedule,
    at: row.schedule === "hourly" ? `:${two(row.scheduleAt)}` : row.schedule === "daily" ? `${two(Math.floor(row.scheduleAt / 60))}:${two(row.scheduleAt % 60)}` : undefined,
    next_run_at: row.nextRunAt?.toISOString(),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  });
}

export function presentDeposit(row: DepositRow): Deposit {
  return present<Deposit>({
    id: row.id,
    chain_id: row.chainId,
    address: row.address,
    token: row.token,
    token_address: row.tokenAddress,
    amount: row.amount.toFixed(0),
    tx_hash: row.txHash,
    log_index: row.logIndex >= 0 ? row.logIndex : undefined,
    block_number: Number(row.blockNumber),
    status: row.status,
    detected_at: row.detectedAt.toISOString(),
    confirmed_at: row.confirmedAt?.toISOString(),
  });
}

export function presentSweep(row: SweepRow): Sweep {
  const swept = row.status === "swept";
  return present<Sweep>({
    id: row.id,
    external_id: row.externalId,
    chain_id: row.chainId,
    hot_wallet: row.hotWallet.address,
    account: row.account,
    token: row.token,
    token_address: row.tokenAddress,
    amount: mapped(row.amount, digits),
    keep_one_unit: row.keepOneUnit ? true : undefined,
    status: row.status as Sweep["status"],
    created_by: row.createdBy === "policy" ? "policy" : undefined,
    reason: row.reason,
    attempts: row.attempts,
    swept_amount: swept ? mapped(row.sweptAmount, digits) : undefined,
    tx_hash: row.txHash,
    kind: row.kind,
    gas: mapped(row.gas, gasNumber),
    gas_cost: mapped(row.gasCost, digits),
    fee: swept ? mapped(row.fee, digits) : undefined,
    classic_gas: mapped(row.classicGas, gasNumber),
    rate_bps: row.rateBps,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  });
}

export function presentRevocation(row: RevocationRow): Revocation {
  return present<Revocation>({
    id: row.id,
    external_id: row.externalId,
    chain_id: row.chainId,
    account: row.account,
    status: row.status as Revocation["status"],
    reason: row.reason,
    attempts: row.attempts,
    tx_hash: row.txHash,
    gas: mapped(row.gas, gasNumber),
    gas_cost: mapped(row.gasCost, digits),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  });
}

/** Every field is present: the spec's LedgerEntry has its nullable fields required. */
export function presentLedgerEntry(row: LedgerEntryRow): LedgerEntry {
  return {
    id: Number(row.id),
    chain_id: row.chainId,
    kind: row.kind,
    amount: digits(row.amount),
    tx_hash: row.txHash,
    sweep_id: row.sweepId,
    note: row.note,
    created_at: row.createdAt.toISOString(),
    balance_after: row.balanceAfter.toString(),
    paid_for: row.paidFor,
  };
}

/** Each gas figure of an object as a JSON integer. */
const gasNumbers = <T extends Record<string, bigint>>(figures: T) => Object.fromEntries(Object.entries(figures).map(([key, gas]) => [key, gasNumber(gas)])) as { [K in keyof T]: number };

export function presentChainTariff(chain: ChainNames & { tokens: readonly { ticker: string; address: string; decimals: number }[] }, tariff: TariffFigures): ChainTariff {
  return present<ChainTariff>({
    chain_id: chain.chainId,
    name: chain.name,
    native: chain.nativeTicker,
    tokens: chain.tokens.map(({ ticker, address, decimals }) => ({ token: ticker, address, decimals })),
    rate_bps: tariff.rateBps,
    rate: bpsToPercent(tariff.rateBps),
    native_markup_bps: tariff.nativeMarkupBps,
    native_markup: bpsToPercent(tariff.nativeMarkupBps),
    classic_gas: tariff.classicGas && Object.fromEntries(Object.entries(tariff.classicGas).map(([ticker, gas]) => [ticker, gasNumbers(gas)])),
    extra_gas: tariff.extraGas && gasNumbers(tariff.extraGas),
  });
}

const notBelowZero = (value: bigint) => (value > 0n ? value : 0n);

/**
 * A chain's line of GET /v1/balance; `balance` null when the node did not answer. fees_accrued is
 * an Amount: credits beyond the fees show as 0 accrued, as they leave nothing due.
 */
export function presentChainBalance(chain: ChainNames, fees: FeeFigures, balance: bigint | null): ChainBalance {
  return present<ChainBalance>({
    chain_id: chain.chainId,
    name: chain.name,
    native: chain.nativeTicker,
    balance: balance?.toString(),
    fees_accrued: notBelowZero(fees.accrued).toString(),
    fees_withdrawn: fees.withdrawn.toString(),
    fees_due: fees.due.toString(),
    available: balance === null ? undefined : notBelowZero(balance - fees.due).toString(),
    error: balance === null ? "chain_unavailable" : undefined,
  });
}

/** The fee ceilings in chain order, whatever order they were read in. */
export function presentSettings(row: { keepOneUnit: boolean; feeCeilings: ReadonlyArray<{ chainId: number; maxFeePerGas: WholeDecimal }> }): Settings {
  return {
    keep_one_unit: row.keepOneUnit,
    fee_ceilings: [...row.feeCeilings].sort((a, b) => a.chainId - b.chainId).map((ceiling) => ({ chain_id: ceiling.chainId, max_fee_per_gas: digits(ceiling.maxFeePerGas) })),
  };
}

/** The alerts in chain order, whatever order they were read in. */
export function presentWebhook(webhook: WebhookRow, alerts: readonly LowBalanceAlertRow[], now = new Date()): Webhook {
  return {
    url: webhook.url,
    secret: webhook.secret,
    ...(webhook.previousSecretUntil !== null && webhook.previousSecretUntil > now ? { previous_secret_until: webhook.previousSecretUntil.toISOString() } : {}),
    low_balance: [...alerts].sort((a, b) => a.chainId - b.chainId).map((alert) => ({ chain_id: alert.chainId, threshold: digits(alert.threshold), low: alert.low })),
  };
}

/** Every field is present: the spec's WebhookDelivery has its nullable fields required. next_attempt_at only while pending. */
export function presentWebhookDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: row.eventId,
    event: row.event.type,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    created_at: row.event.createdAt.toISOString(),
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    next_attempt_at: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
  };
}
