import type { HotWallet, Revocation, Sweep } from "./responses";

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
