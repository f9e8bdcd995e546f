import type { GasWalletSigner } from "@sweep/key-custody";
import { Transaction, getBytes, type Authorization, type Provider, type TransactionLike } from "ethers";
import type { Fees } from "./fees";

/** Everything a transaction says except its fees and signature. */
export interface TransactionContent {
  chainId: bigint;
  nonce: bigint;
  to: string;
  data: string;
  value: bigint;
  gasLimit: bigint;
  /** non-empty for a type-4 transaction; EIP-7702 forbids an empty list, so none means type 2 */
  authorizationList: Authorization[];
}

export interface SignedTransaction {
  rawTx: string;
  hash: string;
  nonce: bigint;
  gasLimit: bigint;
  fees: Fees;
}

/** The transaction a content and its fees make: type 4 with an authorization list, else type 2. */
function transactionRequest(content: TransactionContent, fees: Fees): TransactionLike<string> {
  return {
    type: content.authorizationList.length > 0 ? 4 : 2,
    chainId: content.chainId,
    nonce: Number(content.nonce),
    to: content.to,
    data: content.data,
    value: content.value,
    gasLimit: content.gasLimit,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    ...(content.authorizationList.length > 0 ? { authorizationList: content.authorizationList } : {}),
  };
}

export async function signTransaction(signer: GasWalletSigner, provider: Provider, content: TransactionContent, fees: Fees): Promise<SignedTransaction> {
  const rawTx = await signer.connect(provider).signTransaction(transactionRequest(content, fees));
  return { rawTx, hash: Transaction.from(rawTx).hash!, nonce: content.nonce, gasLimit: content.gasLimit, fees };
}

/**
 * The most bytes the transaction's unsigned RLP can take before its nonce and value are settled: both
 * counted at their widest, so a reserve sized by it holds whatever they turn out to be.
 */
export function widestUnsignedSize(content: Omit<TransactionContent, "nonce" | "value">, fees: Fees): number {
  const widest = Transaction.from(transactionRequest({ ...content, nonce: BigInt(Number.MAX_SAFE_INTEGER), value: (1n << 256n) - 1n }, fees));
  return getBytes(widest.unsignedSerialized).length;
}

/** The content of a stored signed transaction, so a replacement carries exactly the same. */
export function contentOf(rawTx: string): TransactionContent {
  const tx = Transaction.from(rawTx);
  if (tx.to === null) throw new Error("a stored transaction without a recipient");
  return {
    chainId: tx.chainId,
    nonce: BigInt(tx.nonce),
    to: tx.to,
    data: tx.data,
    value: tx.value,
    gasLimit: tx.gasLimit,
    authorizationList: tx.authorizationList ?? [],
  };
}
