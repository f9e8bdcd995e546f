import { DEFAULT_TX_FEE_CAP, effectiveFeeCeiling, withinTxFeeCap, type FeeCeiling } from "@sweep/fees";
import { type BroadcastVerdict, type ChainClient, type NodeReceipt, type Receipt } from "@sweep/rpc";
import type { Logger } from "@sweep/common";
import { partnerMaxFeePerGas, type Db } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import { confirmationSeconds, nonceGapsTotal, noncesAbandonedTotal, replacementsAtCeilingTotal, replacementsTotal } from "@sweep/metrics";
import { batchPurposes } from "../batch-purposes";
import type { InFlightTransaction } from "../batch-types";
import { broadcastStored } from "../broadcast";
import { bumpFees, highestFees, initialFees, type Fees } from "../fees";
import type { GasWalletRow, GasWalletSigners } from "../gas-wallet-signers";
import { contentOf, signTransaction, type SignedTransaction } from "../signing";
import { abandonNonce, settleMined, storeGapFill, storeReplacement, transactionsAtNonces } from "../transaction-store";
import { sinceFirstBroadcast } from "./confirmation-time";
import type { RevocationItemOutcome } from "./mined-outcomes";

/** A gas wallet's nonce as the watcher acts on it this round. */
export interface NonceAt {
  wallet: GasWalletRow;
  nonce: bigint;
  /** the round's head: a nonce given up is looked for on chain from it (AbandonedTransactions) */
  head: number;
}

/**
 * What the watcher does with the transactions of a nonce once it has decided (watcher.ts observes
 * and decides; nonce-decision.ts is the decision): each action stores, signs and sends, and says
 * what came of it. A unit test gives the watcher a fake to see what it decided.
 */
export interface WatchActions {
  /** the stored transaction sent again, marked broadcast when the node took it; the node's verdict */
  rebroadcast(transaction: InFlightTransaction, logger: Logger): Promise<"accepted" | BroadcastVerdict>;
  /** a transaction of ours mined at the confirmation depth: its batch settled (a revocation's once its accounts' code is read) */
  settle(mined: InFlightTransaction, receipt: NodeReceipt, group: readonly InFlightTransaction[], logger: Logger): Promise<void>;
  /** the chain counted past the nonce with no receipt of ours: another transaction took it, and its batches fail */
  abandonTaken(at: NonceAt, logger: Logger): Promise<void>;
  /** a replacement made and sent; false when none can be (outbidding crosses the fee ceiling or the fee cap) */
  replace(at: NonceAt, current: InFlightTransaction, logger: Logger): Promise<boolean>;
  /** a stuck transaction that cannot be replaced, kept at its fees and sent again */
  keepAtCeiling(current: InFlightTransaction, logger: Logger): Promise<void>;
  /** the refused transaction given up (its batch failed for `reason`) and a self-transfer stored at its nonce in the same database transaction, then sent */
  dropAndFill(at: NonceAt, reason: "insufficient_gas_balance" | "nonce_conflict", verdict: "accepted" | BroadcastVerdict, logger: Logger): Promise<void>;
  /** a nonce gap filled with a self-transfer, stored and sent; false when none was stored (the ceiling, or another instance first) */
  fillGap(at: NonceAt, logger: Logger): Promise<boolean>;
}

export interface StoredActionsOptions {
  db: Db;
  names: QueueNames;
  client: ChainClient;
  signers: GasWalletSigners;
  feeCeiling: FeeCeiling;
  txFeeCap?: bigint;
  outboxWritten?: () => void;
}

/** The watcher's actions on the database and the node. */
export class StoredActions implements WatchActions {
  constructor(private readonly options: StoredActionsOptions) {}

  rebroadcast(transaction: InFlightTransaction, logger: Logger): Promise<"accepted" | BroadcastVerdict> {
    return broadcastStored(this.options.db, this.options.client, transaction, logger);
  }

  async settle(mined: InFlightTransaction, nodeReceipt: NodeReceipt, group: readonly InFlightTransaction[], logger: Logger): Promise<void> {
    const { db, names, client } = this.options;
    const receipt = await this.costed(nodeReceipt, logger);
    if (!receipt) return;
    const revocations = await this.chainOutcomes(mined, receipt, logger);
    if (!revocations) return;
    if (await settleMined(db, names, mined, receipt, logger, revocations)) {
      this.options.outboxWritten?.();
      confirmationSeconds.observe({ chain_id: client.chainId, purpose: mined.batch?.purpose ?? "none" }, sinceFirstBroadcast(group, Date.now()));
      logger.info("transaction confirmed", { transactionId: mined.id, hash: mined.hash, blockNumber: receipt.blockNumber, succeeded: receipt.succeeded });
    }
  }

  async abandonTaken(at: NonceAt, logger: Logger): Promise<void> {
    const { db, names, client } = this.options;
    const abandoned = await abandonNonce(db, names, { chainId: client.chainId, gasWalletId: at.wallet.id, nonce: at.nonce, head: at.head, reason: "nonce_conflict" });
    if (abandoned) {
      this.options.outboxWritten?.();
      noncesAbandonedTotal.inc({ chain_id: client.chainId, reason: "nonce_conflict" });
      logger.warn("another transaction took the nonce; batch failed", { batchIds: abandoned.batchIds, reason: "nonce_conflict" });
    }
  }

  /** The receipt with its L1 data fee (an OP-stack chain's), read once, as it is settled; null when the node does not answer: next round. */
  private async costed(receipt: NodeReceipt, logger: Logger): Promise<Receipt | null> {
    try {
      return await this.options.client.costed(receipt);
    } catch (err) {
      logger.warn("could not read the L1 data fee the transaction paid; settling next round", { hash: receipt.hash, error: err instanceof Error ? err.message : String(err) });
      return null;
    }
  }

  /**
   * What the chain says of the carried items, read before settling as the batch's purpose asks
   * (a revocation batch's accounts' code). Null when the node does not answer: the transaction is
   * settled next round.
   */
  private async chainOutcomes(mined: InFlightTransaction, receipt: Receipt, logger: Logger): Promise<RevocationItemOutcome[] | null> {
    if (!mined.batch) return [];
    try {
      return await batchPurposes[mined.batch.purpose].chainOutcomes(this.options.db, this.options.client, mined.batch, receipt);
    } catch (err) {
      logger.warn("could not read the revoked accounts' code; settling next round", { hash: mined.hash, error: err instanceof Error ? err.message : String(err) });
      return null;
    }
  }

  /** The same content at the same nonce with fees above every earlier transaction of that nonce and the current market, under the ceiling. */
  async replace(at: NonceAt, current: InFlightTransaction, logger: Logger): Promise<boolean> {
    const { db, client } = this.options;
    const next = await this.nextAtNonce(at);
    if (!next) return false;
    const { fees, replacement } = next;
    const content = contentOf(current.rawTx);
    // A bump over the fee cap would be refused by the node (and risk more than the cap): the transaction is kept as it is.
    if (!withinTxFeeCap(content.gasLimit, fees.maxFeePerGas, this.options.txFeeCap ?? DEFAULT_TX_FEE_CAP)) return false;
    const signed = await signTransaction(this.signer(at), client.chain.provider, content, fees);
    const stored = await storeReplacement(db, current, signed, replacement);
    if (!stored) return true;
    replacementsTotal.inc({ chain_id: client.chainId });
    const replacementLogger = logger.child({ transactionId: stored.id, hash: stored.hash, replaces: current.hash, replacement });
    replacementLogger.info("replacing a stuck transaction", { maxFeePerGas: fees.maxFeePerGas.toString(), maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString() });
    await broadcastStored(db, client, stored, replacementLogger);
    return true;
  }

  async keepAtCeiling(current: InFlightTransaction, logger: Logger): Promise<void> {
    replacementsAtCeilingTotal.inc({ chain_id: this.options.client.chainId });
    logger.warn("stuck at the fee ceiling; kept and sent again", { maxFeePerGas: current.fees.maxFeePerGas.toString(), maxPriorityFeePerGas: current.fees.maxPriorityFeePerGas.toString() });
    await broadcastStored(this.options.db, this.options.client, current, logger);
  }

  async dropAndFill(at: NonceAt, reason: "insufficient_gas_balance" | "nonce_conflict", verdict: "accepted" | BroadcastVerdict, logger: Logger): Promise<void> {
    const { db, names, client } = this.options;
    const next = await this.nextAtNonce(at);
    // A self-transfer that must outbid at the ceiling cannot: it waits, the ceiling being the platform's word.
    if (!next) {
      logger.warn("cannot outbid the nonce's transaction under the fee ceiling; filled later", { reason });
      return;
    }
    const { fees, replacement } = next;
    const signed = await this.signGapFill(at, fees);
    const abandoned = await abandonNonce(db, names, { chainId: client.chainId, gasWalletId: at.wallet.id, nonce: at.nonce, head: at.head, reason, gapFill: { signed, replacement } });
    if (abandoned) {
      this.options.outboxWritten?.();
      noncesAbandonedTotal.inc({ chain_id: client.chainId, reason });
    }
    if (!abandoned?.gapFill) return;
    const fillLogger = logger.child({ transactionId: abandoned.gapFill.id, hash: abandoned.gapFill.hash });
    fillLogger.warn("gave up a transaction the node refuses; its nonce is filled with a self-transfer", { batchIds: abandoned.batchIds, reason, verdict });
    await broadcastStored(db, client, abandoned.gapFill, fillLogger);
  }

  async fillGap(at: NonceAt, logger: Logger): Promise<boolean> {
    const { db, client } = this.options;
    const next = await this.nextAtNonce(at);
    if (!next) return false;
    const { fees, replacement } = next;
    const stored = await storeGapFill(db, client.chainId, at.wallet.id, await this.signGapFill(at, fees), replacement);
    if (!stored) return false;
    nonceGapsTotal.inc({ chain_id: client.chainId });
    const fillLogger = logger.child({ transactionId: stored.id, hash: stored.hash });
    fillLogger.warn("closing a nonce gap with a self-transfer");
    await broadcastStored(db, client, stored, fillLogger);
    return true;
  }

  /**
   * Fees and replacement number for a new transaction at a nonce that may have earlier ones (of any status), under the
   * gas wallet's ceiling; null when outbidding them would cross it.
   */
  private async nextAtNonce(at: NonceAt): Promise<{ fees: Fees; replacement: number } | null> {
    const { db, client } = this.options;
    const [earlier, market, partnerMaxFee] = await Promise.all([
      transactionsAtNonces(db, client.chainId, at.wallet.id, [at.nonce]),
      client.feeMarket(),
      partnerMaxFeePerGas(db, { gasWalletId: at.wallet.id }, client.chainId),
    ]);
    const ceiling = effectiveFeeCeiling(this.options.feeCeiling, partnerMaxFee);
    const outbid = highestFees(earlier.map((t) => t.fees));
    const fees = outbid ? bumpFees(outbid, market, ceiling) : initialFees(market, ceiling);
    return fees && { fees, replacement: earlier.length === 0 ? 0 : Math.max(...earlier.map((t) => t.replacement)) + 1 };
  }

  /**
   * A self-transfer at the nonce, its gas limit the node's estimate: 21,000 on most chains, more on
   * Arbitrum, whose gas counts the transaction's L1 calldata (eth_estimateGas there pads its L1 price).
   */
  private async signGapFill(at: NonceAt, fees: Fees): Promise<SignedTransaction> {
    const { client } = this.options;
    const self = at.wallet.address;
    const gasLimit = await client.estimateGas({ from: self, to: self, data: "0x" });
    const content = { chainId: BigInt(client.chainId), nonce: at.nonce, to: self, data: "0x", value: 0n, gasLimit, authorizationList: [] };
    return signTransaction(this.signer(at), client.chain.provider, content, fees);
  }

  private signer(at: NonceAt) {
    return this.options.signers.signerFor(at.wallet);
  }
}
