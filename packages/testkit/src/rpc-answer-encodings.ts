/**
 * Other encodings of a node's JSON-RPC answers than anvil's, each one a real node or provider
 * gives: what a client must read as the same answer. Pure functions of one call's method and result.
 */
import { getAddress } from "ethers";

export interface AnswerEncodings {
  /**
   * Quantities with upper-case hex digits ("0x5A"). The execution-apis schema writes them in lower
   * case, but JSON-RPC clients (ethers' getBigInt, go-ethereum's hexutil) read either: a client that
   * compares a quantity as a string, or parses it by hand, breaks.
   */
  upperCaseQuantities?: boolean;
  /** Addresses in EIP-55 mixed case, which the schema allows (`^0x[0-9a-fA-F]{40}$`) and some nodes write. */
  checksumAddresses?: boolean;
  /**
   * Without the fields geth omits and anvil writes: receipts' blobGasPrice/blobGasUsed (blob
   * transactions only), root (pre-Byzantium only), blockTimestamp (receipts, logs and
   * transactions); a typed transaction's `v` (yParity is the field); blocks' totalDifficulty (gone
   * since the merge).
   */
  omitOptionalFields?: boolean;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The shape of one kind of object in an answer: which keys hold quantities, addresses, or nested objects. */
interface Shape {
  quantities: readonly string[];
  addresses: readonly string[];
  nested?: Record<string, () => Shape>;
  /** quantity arrays (fee history) */
  quantityLists?: readonly string[];
  omit?: (object: JsonObject) => readonly string[];
}

const log: Shape = {
  quantities: ["blockNumber", "transactionIndex", "logIndex"],
  addresses: ["address"],
  omit: () => ["blockTimestamp"],
};
const authorization: Shape = { quantities: ["chainId", "nonce", "yParity", "r", "s"], addresses: ["address"] };
const transaction: Shape = {
  quantities: ["blockNumber", "transactionIndex", "type", "nonce", "gas", "gasPrice", "maxFeePerGas", "maxPriorityFeePerGas", "maxFeePerBlobGas", "value", "chainId", "v", "yParity", "r", "s"],
  addresses: ["from", "to"],
  nested: { authorizationList: () => authorization },
  omit: (tx) => ["blockTimestamp", ...(tx.type !== undefined && tx.type !== "0x0" && tx.yParity !== undefined ? ["v"] : [])],
};
const receipt: Shape = {
  quantities: ["blockNumber", "transactionIndex", "type", "status", "gasUsed", "cumulativeGasUsed", "effectiveGasPrice", "blobGasUsed", "blobGasPrice"],
  addresses: ["from", "to", "contractAddress"],
  nested: { logs: () => log },
  omit: (r) => ["blockTimestamp", "root", ...(r.type === "0x3" ? [] : ["blobGasPrice", "blobGasUsed"])],
};
const block: Shape = {
  quantities: ["number", "timestamp", "gasLimit", "gasUsed", "baseFeePerGas", "difficulty", "totalDifficulty", "size", "blobGasUsed", "excessBlobGas"],
  addresses: ["miner"],
  nested: { transactions: () => transaction },
  omit: () => ["totalDifficulty", "blockTimestamp"],
};
const simulatedCall: Shape = { quantities: ["status", "gasUsed"], addresses: [], nested: { logs: () => log } };
const simulatedBlock: Shape = { ...block, nested: { ...block.nested, calls: () => simulatedCall } };
const feeHistory: Shape = { quantities: ["oldestBlock"], addresses: [], quantityLists: ["baseFeePerGas", "baseFeePerBlobGas"] };

/** What each method's result is: a quantity, an object of a shape, or a list of them. */
const resultShapes: Record<string, "quantity" | Shape | [Shape]> = {
  eth_blockNumber: "quantity",
  eth_chainId: "quantity",
  eth_getBalance: "quantity",
  eth_getTransactionCount: "quantity",
  eth_estimateGas: "quantity",
  eth_gasPrice: "quantity",
  eth_maxPriorityFeePerGas: "quantity",
  eth_blobBaseFee: "quantity",
  eth_getTransactionReceipt: receipt,
  eth_getTransactionByHash: transaction,
  eth_getBlockByNumber: block,
  eth_getBlockByHash: block,
  eth_getLogs: [log],
  eth_getBlockReceipts: [receipt],
  eth_simulateV1: [simulatedBlock],
  eth_feeHistory: feeHistory,
};

const QUANTITY = /^0x[0-9a-fA-F]+$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function quantity(value: Json, options: AnswerEncodings): Json {
  return options.upperCaseQuantities && typeof value === "string" && QUANTITY.test(value) ? "0x" + value.slice(2).toUpperCase() : value;
}

function reshape(value: Json, shape: Shape, options: AnswerEncodings): Json {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const out: JsonObject = { ...value };
  if (options.omitOptionalFields) for (const key of shape.omit?.(value) ?? []) delete out[key];
  for (const key of shape.quantities) if (key in out) out[key] = quantity(out[key]!, options);
  for (const key of shape.quantityLists ?? []) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map((q) => quantity(q, options));
  }
  if (options.checksumAddresses) {
    for (const key of shape.addresses) {
      const address = out[key];
      if (typeof address === "string" && ADDRESS.test(address)) out[key] = getAddress(address);
    }
  }
  for (const [key, inner] of Object.entries(shape.nested ?? {})) {
    const list = out[key];
    // A block's transactions are hashes unless it was asked for in full.
    if (Array.isArray(list)) out[key] = list.map((item) => (typeof item === "string" ? item : reshape(item, inner(), options)));
  }
  return out;
}

/** `result` of `method` in the chosen encodings; a method whose result is not described comes back as it was. */
export function reencodeResult(method: string, result: Json, options: AnswerEncodings): Json {
  const shape = resultShapes[method];
  if (shape === undefined || result === null) return result;
  if (shape === "quantity") return quantity(result, options);
  if (Array.isArray(shape)) return Array.isArray(result) ? result.map((item) => reshape(item, shape[0], options)) : result;
  return reshape(result, shape, options);
}

/** Whether any encoding is on. */
export function changesEncoding(options: AnswerEncodings): boolean {
  return Boolean(options.upperCaseQuantities || options.checksumAddresses || options.omitOptionalFields);
}

export type { Json as JsonValue };
