/**
 * How a node some blocks behind the head answers, emulated over one real node that is at the head:
 * each call is answered as of the lagging node's last block (`view`). Pure: a plan of what to send
 * the real node, and how to turn its answer into the lagging node's.
 */
import { toQuantity } from "ethers";
import type { JsonValue } from "./rpc-answer-encodings";

export interface JsonRpcCall {
  jsonrpc: "2.0";
  id: JsonValue;
  method: string;
  params?: JsonValue[];
}

export interface JsonRpcError {
  code: number;
  message: string;
  data?: JsonValue;
}

export interface JsonRpcAnswer {
  jsonrpc: "2.0";
  id: JsonValue;
  result?: JsonValue;
  error?: JsonRpcError;
}

export type LagPlan =
  /** answered without the real node */
  | { answer: JsonRpcAnswer }
  /** `call` goes to the real node; `adjust` makes its answer the lagging node's */
  | { call: JsonRpcCall; adjust(answer: JsonRpcAnswer): JsonRpcAnswer };

/** Where each method takes its block (a tag, a number, or an EIP-1898 object), and what it answers for a block the node lacks. */
const blockParams: Record<string, { index: number; unknown: "null" | "header not found" | "beyond head" }> = {
  eth_getBalance: { index: 1, unknown: "header not found" },
  eth_getCode: { index: 1, unknown: "header not found" },
  eth_getTransactionCount: { index: 1, unknown: "header not found" },
  eth_getStorageAt: { index: 2, unknown: "header not found" },
  eth_getProof: { index: 2, unknown: "header not found" },
  eth_call: { index: 1, unknown: "header not found" },
  eth_estimateGas: { index: 1, unknown: "header not found" },
  eth_createAccessList: { index: 1, unknown: "header not found" },
  eth_simulateV1: { index: 1, unknown: "header not found" },
  eth_feeHistory: { index: 1, unknown: "beyond head" },
  eth_getBlockByNumber: { index: 0, unknown: "null" },
  eth_getBlockReceipts: { index: 0, unknown: "null" },
  eth_getBlockTransactionCountByNumber: { index: 0, unknown: "null" },
  eth_getTransactionByBlockNumberAndIndex: { index: 0, unknown: "null" },
};

/** Methods answering about a transaction or block found by hash: null when it is above the lagging node's head. */
const minedAt: Record<string, (result: { [key: string]: JsonValue }) => JsonValue | undefined> = {
  eth_getTransactionReceipt: (r) => r.blockNumber,
  eth_getTransactionByHash: (r) => r.blockNumber,
  eth_getTransactionByBlockHashAndIndex: (r) => r.blockNumber,
  eth_getBlockByHash: (r) => r.number,
};

const passThrough = (call: JsonRpcCall): LagPlan => ({ call, adjust: (answer) => answer });

function blockNumberOf(value: JsonValue | undefined): number | undefined {
  return typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value) ? Number(BigInt(value)) : undefined;
}

function unknownBlock(call: JsonRpcCall, kind: "null" | "header not found" | "beyond head", requested: number, view: number): JsonRpcAnswer {
  const base = { jsonrpc: "2.0" as const, id: call.id };
  // go-ethereum's answers for a block it has not seen yet.
  if (kind === "null") return { ...base, result: null };
  if (kind === "header not found") return { ...base, error: { code: -32000, message: "header not found" } };
  return { ...base, error: { code: -32000, message: `request beyond head block: requested ${requested}, head ${view}` } };
}

/** The plan for `call` on a node whose last block is `view`. */
export function lagPlan(call: JsonRpcCall, view: number): LagPlan {
  const params = [...(call.params ?? [])];
  if (call.method === "eth_blockNumber") return { answer: { jsonrpc: "2.0", id: call.id, result: toQuantity(view) } };

  const block = blockParams[call.method];
  if (block) {
    const tag = params[block.index];
    const asObject = tag !== null && typeof tag === "object" && !Array.isArray(tag) ? tag : undefined;
    if (asObject && "blockHash" in asObject) return passThrough(call);
    const requested = blockNumberOf(asObject ? asObject.blockNumber : tag);
    if (tag === undefined || tag === null || tag === "latest" || tag === "pending") {
      // The lagging node's pool lacks what was mined after its head: "pending" is its latest too.
      while (params.length < block.index) params.push(null);
      params[block.index] = toQuantity(view);
      return passThrough({ ...call, params });
    }
    if (requested !== undefined && requested > view) return { answer: unknownBlock(call, block.unknown, requested, view) };
    return passThrough(call);
  }

  const mined = minedAt[call.method];
  if (mined) {
    return {
      call,
      adjust: (answer) => {
        const result = answer.result;
        if (result === null || typeof result !== "object" || Array.isArray(result)) return answer;
        const at = blockNumberOf(mined(result));
        return at !== undefined && at > view ? { ...answer, result: null } : answer;
      },
    };
  }

  if (call.method === "eth_getLogs") {
    const filter = params[0];
    const byHash = filter !== null && typeof filter === "object" && !Array.isArray(filter) && "blockHash" in filter;
    return {
      call,
      adjust: (answer) => {
        if (!Array.isArray(answer.result)) return answer;
        const seen = answer.result.filter((log) => !(log && typeof log === "object" && !Array.isArray(log) && (blockNumberOf(log.blockNumber) ?? 0) > view));
        // Asked for one block by its hash (EIP-234), a node that lacks it fails (go-ethereum's and anvil's "unknown block")
        // instead of answering none. A block without matching logs reads [] either way: the answer is the same.
        if (byHash && seen.length < answer.result.length) return { jsonrpc: "2.0", id: call.id, error: { code: -32000, message: "unknown block" } };
        return { ...answer, result: seen };
      },
    };
  }
  return passThrough(call);
}
