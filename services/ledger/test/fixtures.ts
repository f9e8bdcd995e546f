/**
 * The database state the other services leave for the ledger: a partner with its gas wallet, a hot
 * wallet, sweeps or revocations claimed into a batch by the batcher, and the batch's confirmed
 * transaction with the item outcomes the chain-sender recorded.
 */
import { randomBytes } from "node:crypto";
import { createTestPartner } from "@sweep/testkit";
import { toDecimal, type Db, type SweepKind } from "@sweep/db";
import { Transaction, Wallet, ZeroAddress, getAddress, hexlify } from "ethers";

export const randomAddress = () => getAddress(hexlify(randomBytes(20)));
export const randomHash = () => hexlify(randomBytes(32));

export interface Partner {
  partnerId: string;
  gasWalletId: string;
  gasWallet: string;
}

export async function createPartner(db: Db): Promise<Partner> {
  const { partnerId, gasWallet } = await createTestPartner(db, "ledger test partner");
  const { id } = await db.gasWallet.findUniqueOrThrow({ where: { partnerId } });
  return { partnerId, gasWalletId: id, gasWallet };
}

export async function createHotWallet(db: Db, partner: Partner, options: { chainId?: number; status: "pending" | "active"; address?: string; delegate?: string }) {
  return db.hotWallet.create({
    data: { partnerId: partner.partnerId, chainId: options.chainId ?? 97, address: options.address ?? randomAddress(), delegate: options.delegate ?? randomAddress(), status: options.status },
  });
}

export interface Receipt {
  hash?: string;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  succeeded: boolean;
  /** the block it was mined in (1 unless told) */
  blockNumber?: number;
}

const nonces = new Map<string, bigint>();

/** The chain-sender's confirmed transaction of a batch (or of no batch, as a gap filler without one). */
export async function createConfirmedTransaction(db: Db, partner: Partner, batchId: string | null, receipt: Receipt, chainId = 97, rawTx = "0x04") {
  const nonce = nonces.get(partner.gasWalletId) ?? 0n;
  nonces.set(partner.gasWalletId, nonce + 1n);
  return db.chainTransaction.create({
    data: {
      chainId,
      gasWalletId: partner.gasWalletId,
      batchId,
      nonce,
      hash: receipt.hash ?? randomHash(),
      rawTx,
      status: "confirmed",
      gasLimit: 1_000_000n,
      maxFeePerGas: toDecimal(receipt.effectiveGasPrice * 2n),
      maxPriorityFeePerGas: toDecimal(1n),
      gasUsed: receipt.gasUsed,
      effectiveGasPrice: toDecimal(receipt.effectiveGasPrice),
      blockNumber: BigInt(receipt.blockNumber ?? 1),
      succeeded: receipt.succeeded,
      minedAt: new Date(),
    },
  });
}

export interface ItemSpec {
  kind: SweepKind;
  withAuthorization: boolean;
  /** "swept", a failure reason, or null while the chain-sender has not recorded one */
  outcome: string | null;
  amount?: bigint;
  gasUsed?: bigint;
  /** attempts so far, this batch's included */
  attempts?: number;
  native?: boolean;
}

/** Sweeps claimed into a batch (processing, batchId, attempts counted) with their items in position order. */
export async function createSweepBatch(db: Db, partner: Partner, hotWallet: { id: string; chainId: number }, specs: ItemSpec[]) {
  const batch = await db.batch.create({ data: { chainId: hotWallet.chainId, gasWalletId: partner.gasWalletId, hotWalletId: hotWallet.id, purpose: "sweep", status: "confirmed" } });
  const sweepIds: string[] = [];
  for (const [position, spec] of specs.entries()) {
    const sweep = await db.sweep.create({
      data: {
        partnerId: partner.partnerId,
        chainId: hotWallet.chainId,
        hotWalletId: hotWallet.id,
        account: randomAddress(),
        token: spec.native ? "tBNB" : "USDT",
        tokenAddress: spec.native ? null : randomAddress(),
        status: "processing",
        attempts: spec.attempts ?? 1,
        batchId: batch.id,
      },
    });
    sweepIds.push(sweep.id);
    await db.batchItem.create({
      data: {
        batchId: batch.id,
        position,
        sweepId: sweep.id,
        withAuthorization: spec.withAuthorization,
        kind: spec.kind,
        outcome: spec.outcome,
        amount: spec.amount === undefined ? null : toDecimal(spec.amount),
        gasUsed: spec.gasUsed ?? null,
      },
    });
  }
  return { batchId: batch.id, sweepIds };
}

export function createDeployBatch(db: Db, partner: Partner, hotWallet: { id: string; chainId: number }, status: "confirmed" | "failed") {
  return db.batch.create({ data: { chainId: hotWallet.chainId, gasWalletId: partner.gasWalletId, hotWalletId: hotWallet.id, purpose: "deploy_delegate", status } });
}

export interface RevocationSpec {
  /** the watcher's verdict, or null while the chain-sender has not recorded one */
  outcome: "revoked" | "not_applied" | null;
  /** attempts so far, this batch's included */
  attempts?: number;
}

/** Revocations claimed into a revocation batch of the partner's gas wallet (processing, batchId, attempts counted) with their items in position order. */
export async function createRevocationBatch(db: Db, partner: Partner, specs: RevocationSpec[], chainId = 97) {
  const batch = await db.batch.create({ data: { chainId, gasWalletId: partner.gasWalletId, purpose: "revocation", status: "confirmed" } });
  const revocationIds: string[] = [];
  for (const [position, spec] of specs.entries()) {
    const revocation = await db.revocation.create({
      data: {
        partnerId: partner.partnerId,
        chainId,
        account: randomAddress(),
        authorization: { chain_id: chainId, address: ZeroAddress, nonce: position, y_parity: 1, r: randomHash(), s: randomHash() },
        status: "processing",
        attempts: spec.attempts ?? 1,
        batchId: batch.id,
      },
    });
    revocationIds.push(revocation.id);
    await db.batchItem.create({ data: { batchId: batch.id, position, revocationId: revocation.id, withAuthorization: true, outcome: spec.outcome } });
  }
  return { batchId: batch.id, revocationIds };
}

/**
 * A withdrawal batch the chain-sender sent and saw mined: its transaction a plain transfer of
 * `value` to `treasury`, signed by a key of its own (so each hash is new), stored as the chain-sender stores it.
 */
export async function createWithdrawal(db: Db, partner: Partner, withdrawal: { value: bigint; treasury: string; receipt: Omit<Receipt, "hash"> }) {
  const { value, treasury, receipt } = withdrawal;
  const batch = await db.batch.create({ data: { chainId: 97, gasWalletId: partner.gasWalletId, purpose: "withdrawal", status: "confirmed" } });
  const signer = new Wallet(hexlify(randomBytes(32)));
  const rawTx = await signer.signTransaction({ type: 2, chainId: 97, nonce: 0, to: treasury, value, data: "0x", gasLimit: 21_000, maxFeePerGas: receipt.effectiveGasPrice * 2n, maxPriorityFeePerGas: 1n });
  const transaction = await createConfirmedTransaction(db, partner, batch.id, { ...receipt, hash: Transaction.from(rawTx).hash! }, 97, rawTx);
  return { batchId: batch.id, transaction };
}
