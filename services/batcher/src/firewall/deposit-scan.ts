import { getAddress, id } from "ethers";

/**
 * Deposit detection's verdict on one block, pure: which of its listed tokens' Transfer logs and which
 * of its plain transactions carrying the native coin pay an inventory address. The block's cost, not
 * the inventory's: the logs are read by topic (and token) and their recipients looked up, as are the
 * recipients of transactions with value. Native coin sent by a contract's internal call leaves neither
 * a log nor a transaction to the address, and is not seen here.
 */

export const TRANSFER_TOPIC = id("Transfer(address,address,uint256)");

/** A transaction as detection reads it. */
export interface ValueTransaction {
  hash: string;
  /** EIP-55; null for a contract creation */
  to: string | null;
  value: bigint;
}

/** A log as the node sends it (eth_getLogs). */
export interface RawLog {
  address: string;
  topics: readonly string[];
  data: string;
  logIndex: string;
  transactionHash: string;
  blockHash: string;
  removed?: boolean;
}

export interface ListedToken {
  ticker: string;
  /** EIP-55 */
  address: string;
}

/** A deposit address of one partner, as the inventory holds it. */
export interface DepositAccount {
  partnerId: string;
  /** EIP-55 */
  address: string;
}

export interface FoundDeposit {
  account: DepositAccount;
  /** the token's ticker, or the native coin's */
  token: string;
  /** null for the native coin */
  tokenAddress: string | null;
  amount: bigint;
  txHash: string;
  /** the Transfer log's index in its block; -1 for the native coin */
  logIndex: number;
}

/** A listed token's transfer of a positive amount, decoded; undefined for any other log (another event, an ERC-721's four topics, a malformed word). */
export function decodeTransfer(log: RawLog, tokens: ReadonlyMap<string, ListedToken>): { token: ListedToken; to: string; amount: bigint } | undefined {
  const token = tokens.get(log.address.toLowerCase());
  if (!token || log.removed || log.topics.length !== 3 || log.topics[0]?.toLowerCase() !== TRANSFER_TOPIC) return undefined;
  const word = log.topics[2]!;
  if (!/^0x0{24}[0-9a-fA-F]{40}$/.test(word) || !/^0x[0-9a-fA-F]{64}$/.test(log.data)) return undefined;
  const amount = BigInt(log.data);
  return amount > 0n ? { token, to: getAddress(`0x${word.slice(26)}`), amount } : undefined;
}

/** The addresses a block's deposits could be paid to: what the inventory is asked about. */
export function depositRecipients(transactions: readonly ValueTransaction[], logs: readonly RawLog[], tokens: ReadonlyMap<string, ListedToken>): string[] {
  const recipients = new Set<string>();
  for (const transaction of transactions) if (transaction.to !== null && transaction.value > 0n) recipients.add(transaction.to);
  for (const log of logs) {
    const transfer = decodeTransfer(log, tokens);
    if (transfer) recipients.add(transfer.to);
  }
  return [...recipients];
}

/**
 * The block's deposits to the inventory (`accountsOf` an address: one account per partner that holds
 * it). Native ones are candidates: whether the transaction succeeded is the caller's check (its receipt).
 * Zero-value transfers (address poisoning's) are none.
 */
export function findDeposits(
  block: { transactions: readonly ValueTransaction[]; logs: readonly RawLog[] },
  tokens: ReadonlyMap<string, ListedToken>,
  nativeTicker: string,
  accountsOf: (address: string) => readonly DepositAccount[],
): FoundDeposit[] {
  const found: FoundDeposit[] = [];
  for (const transaction of block.transactions) {
    if (transaction.to === null || transaction.value === 0n) continue;
    for (const account of accountsOf(transaction.to)) found.push({ account, token: nativeTicker, tokenAddress: null, amount: transaction.value, txHash: transaction.hash, logIndex: -1 });
  }
  for (const log of block.logs) {
    const transfer = decodeTransfer(log, tokens);
    if (!transfer) continue;
    for (const account of accountsOf(transfer.to)) {
      found.push({ account, token: transfer.token.ticker, tokenAddress: transfer.token.address, amount: transfer.amount, txHash: log.transactionHash, logIndex: Number(log.logIndex) });
    }
  }
  return found;
}

/** The listed tokens by lower-case address, as logs name their contract. */
export function tokensByAddress(tokens: readonly ListedToken[]): Map<string, ListedToken> {
  return new Map(tokens.map((token) => [token.address.toLowerCase(), { ticker: token.ticker, address: getAddress(token.address) }]));
}
