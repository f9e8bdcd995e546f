import { lagPlan, type JsonRpcAnswer, type JsonRpcCall } from "./lagging-backend";

const VIEW = 0x10;
const call = (method: string, params: unknown[]): JsonRpcCall => ({ jsonrpc: "2.0", id: 1, method, params: params as JsonRpcCall["params"] });

describe("lagPlan: a node whose last block is 0x10", () => {
  it.each<[string, unknown[], unknown[]]>([
    ["eth_getBalance", ["0xa", "latest"], ["0xa", "0x10"]],
    ["eth_getTransactionCount", ["0xa", "pending"], ["0xa", "0x10"]],
    ["eth_estimateGas", [{ to: "0xa" }], [{ to: "0xa" }, "0x10"]],
    ["eth_getStorageAt", ["0xa", "0x0"], ["0xa", "0x0", "0x10"]],
    ["eth_simulateV1", [{ blockStateCalls: [] }, "latest"], [{ blockStateCalls: [] }, "0x10"]],
    ["eth_feeHistory", ["0x4", "latest", []], ["0x4", "0x10", []]],
    ["eth_getBlockByNumber", ["pending", false], ["0x10", false]],
    ["eth_getCode", ["0xa", "0xf"], ["0xa", "0xf"]],
    ["eth_getCode", ["0xa", { blockNumber: "0x10" }], ["0xa", { blockNumber: "0x10" }]],
    ["eth_getCode", ["0xa", { blockHash: "0xbeef" }], ["0xa", { blockHash: "0xbeef" }]],
    ["eth_getCode", ["0xa", "earliest"], ["0xa", "earliest"]],
    ["eth_chainId", [], []],
  ])("%s %j goes to the node as %j", (method, params, sent) => {
    const plan = lagPlan(call(method, params), VIEW);
    expect("call" in plan && plan.call.params).toEqual(sent);
  });

  it.each<[string, unknown[], Partial<JsonRpcAnswer>]>([
    ["eth_blockNumber", [], { result: "0x10" }],
    ["eth_getBlockByNumber", ["0x11", false], { result: null }],
    ["eth_getBlockReceipts", ["0x11"], { result: null }],
    ["eth_getBalance", ["0xa", "0x11"], { error: { code: -32000, message: "header not found" } }],
    ["eth_call", [{ to: "0xa" }, { blockNumber: "0x20" }], { error: { code: -32000, message: "header not found" } }],
    ["eth_feeHistory", ["0x4", "0x12", []], { error: { code: -32000, message: "request beyond head block: requested 18, head 16" } }],
  ])("%s %j is answered without the node: %j", (method, params, answer) => {
    expect(lagPlan(call(method, params), VIEW)).toEqual({ answer: { jsonrpc: "2.0", id: 1, ...answer } });
  });

  const adjusted = (method: string, result: unknown) => {
    const plan = lagPlan(call(method, ["0xhash"]), VIEW);
    if (!("adjust" in plan)) throw new Error("expected a call to the node");
    return plan.adjust({ jsonrpc: "2.0", id: 1, result: result as JsonRpcAnswer["result"] }).result;
  };
  it.each<[string, unknown, unknown]>([
    ["eth_getTransactionReceipt", { blockNumber: "0x11" }, null],
    ["eth_getTransactionReceipt", { blockNumber: "0x10" }, { blockNumber: "0x10" }],
    ["eth_getTransactionReceipt", null, null],
    ["eth_getTransactionByHash", { blockNumber: "0x11" }, null],
    ["eth_getTransactionByHash", { blockNumber: null }, { blockNumber: null }],
    ["eth_getBlockByHash", { number: "0x11" }, null],
    ["eth_getLogs", [{ blockNumber: "0xf" }, { blockNumber: "0x10" }, { blockNumber: "0x11" }], [{ blockNumber: "0xf" }, { blockNumber: "0x10" }]],
  ])("%s answered %j by the node reads %j", (method, result, expected) => {
    expect(adjusted(method, result)).toEqual(expected);
  });

  it.each<[string, unknown[], Partial<JsonRpcAnswer>]>([
    ["a block the node lacks: it fails", [{ blockNumber: "0x11" }], { error: { code: -32000, message: "unknown block" } }],
    ["a block it has", [{ blockNumber: "0x10" }], { result: [{ blockNumber: "0x10" }] }],
    ["no logs: the same answer whether it has the block or not", [], { result: [] }],
  ])("eth_getLogs by block hash, %s", (_, logs, expected) => {
    const plan = lagPlan(call("eth_getLogs", [{ blockHash: "0xb", topics: [] }]), VIEW);
    if (!("adjust" in plan)) throw new Error("expected a call to the node");
    expect(plan.adjust({ jsonrpc: "2.0", id: 1, result: logs as JsonRpcAnswer["result"] })).toEqual({ jsonrpc: "2.0", id: 1, ...expected });
  });
});
