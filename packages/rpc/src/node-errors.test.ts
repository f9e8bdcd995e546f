import { BATCH_GAS_TOO_LOW_SELECTOR } from "@sweep/contracts";
import { makeError } from "ethers";
import { ChainCallError, broadcastVerdict, countsAsSent, estimateFailureReason, isStateUnavailable, isUnsupportedMethod } from "./node-errors";

/** An error as ethers raises it for a JSON-RPC error answer. */
const rpcError = (message: string, code = -32000) => makeError("could not coalesce error", "UNKNOWN_ERROR", { error: { code, message } });
const connectionRefused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8545"), { code: "ECONNREFUSED" });

describe("estimate refusals", () => {
  it.each([
    ["the delegate's BatchGasTooLow", makeError("execution reverted", "CALL_EXCEPTION", { data: BATCH_GAS_TOO_LOW_SELECTOR, action: "estimateGas", reason: null, transaction: { to: null, data: "0x" }, invocation: null, revert: null }), "gas_limit_exceeded"],
    ["geth: gas required exceeds allowance", rpcError("gas required exceeds allowance (30000000)"), "gas_limit_exceeded"],
    ["exceeds block gas limit", rpcError("exceeds block gas limit"), "gas_limit_exceeded"],
    ["insufficient funds", makeError("insufficient funds", "INSUFFICIENT_FUNDS", { transaction: {} }), "insufficient_gas_balance"],
    ["besu: upfront cost exceeds account balance", rpcError("Upfront cost exceeds account balance", -32004), "insufficient_gas_balance"],
    ["a provider checking the node's fee cap", rpcError("tx fee (1.68 ether) exceeds the configured cap (1.00 ether)"), "gas_limit_exceeded"],
    ["another revert (Unauthorized)", makeError("execution reverted", "CALL_EXCEPTION", { data: "0x82b42900", action: "estimateGas", reason: null, transaction: { to: null, data: "0x" }, invocation: null, revert: null }), "internal"],
    ["no connection", connectionRefused, "chain_unavailable"],
    ["an odd error answer", rpcError("header not found"), "chain_unavailable"],
  ])("estimate refused by %s", (_name, err, reason) => {
    expect(estimateFailureReason(new ChainCallError("eth_estimateGas", err))).toBe(reason);
  });
});

describe("broadcast verdicts", () => {
  it.each([
    ["geth: already known", rpcError("already known"), "known", true],
    ["anvil: transaction already imported", rpcError("transaction already imported", -32003), "known", true],
    ["nethermind: AlreadyKnown", rpcError("AlreadyKnown"), "known", true],
    ["nonce too low (ethers' NONCE_EXPIRED)", makeError("nonce has already been used", "NONCE_EXPIRED", { transaction: {} }), "nonce_used", true],
    ["nonce too low (raw)", rpcError("nonce too low: next nonce 5, tx nonce 4"), "nonce_used", true],
    ["replacement underpriced", makeError("replacement fee too low", "REPLACEMENT_UNDERPRICED", { transaction: {} }), "underpriced", true],
    ["replacement underpriced (raw)", rpcError("replacement transaction underpriced"), "underpriced", true],
    ["insufficient funds", makeError("insufficient funds for intrinsic transaction cost", "INSUFFICIENT_FUNDS", { transaction: {} }), "insufficient_funds", false],
    ["erigon: could not replace existing tx", rpcError("could not replace existing tx"), "underpriced", true],
    ["nethermind: ReplacementNotAllowed", rpcError("ReplacementNotAllowed"), "underpriced", true],
    ["nethermind: OldNonce", rpcError("OldNonce"), "nonce_used", true],
    ["nethermind: InsufficientFunds", rpcError("InsufficientFunds, Account balance: 0, cumulative cost: 21000"), "insufficient_funds", false],
    ["nethermind: FeeTooLowToCompete", rpcError("FeeTooLowToCompete"), "refused", false],
    ["geth: transaction underpriced (below the pool's floor)", rpcError("transaction underpriced: tip needed 1, tip permitted 0"), "refused", false],
    ["bsc: transaction gas price below minimum", rpcError("transaction gas price below minimum: gas tip cap 0, minimum needed 1000000000"), "refused", false],
    ["geth: authority already reserved", rpcError("authority already reserved"), "authority_reserved", false],
    ["besu: upfront cost exceeds account balance", rpcError("Upfront cost exceeds account balance", -32004), "insufficient_funds", false],
    ["geth: tx fee exceeds the configured cap", rpcError("tx fee (1.68 ether) exceeds the configured cap (1.00 ether)"), "fee_cap_exceeded", false],
    ["erigon: tx fee exceeds the configured cap", rpcError("tx fee (2.10 ether) exceeds the configured cap (1.00 ether)", -32000), "fee_cap_exceeded", false],
    ["reth: tx fee exceeds the configured cap", rpcError("tx fee (1.5 ether) exceeds the configured cap (1 ether)", -32003), "fee_cap_exceeded", false],
    ["besu: transaction fee cap exceeded", rpcError("Transaction fee cap exceeded", -32000), "fee_cap_exceeded", false],
    ["a refusal in an odd shape (no JSON-RPC code)", new Error("transaction underpriced"), "refused", false],
    ["fee cap below the base fee", rpcError("max fee per gas less than block base fee", -32003), "refused", false],
    ["no connection", connectionRefused, "unavailable", false],
    ["a timeout", new Error("no answer within 10000 ms"), "unavailable", false],
  ])("%s", (_name, err, verdict, sent) => {
    const v = broadcastVerdict(new ChainCallError("eth_sendRawTransaction", err));
    expect(v).toBe(verdict);
    expect(countsAsSent(v)).toBe(sent);
  });

  it("counts an accepted transaction as sent", () => {
    expect(countsAsSent("accepted")).toBe(true);
  });
});

describe("unsupported methods", () => {
  it.each([
    ["anvil: Method not found", rpcError("Method not found", -32601), true],
    ["geth: the method does not exist", rpcError("the method eth_simulateV1 does not exist/is not available"), true],
    ["hardhat: -32004 not supported", rpcError("Method eth_simulateV1 is not supported", -32004), true],
    ["a provider's -32600", rpcError("Unsupported method: eth_simulateV1", -32600), true],
    ["a provider's plain words", rpcError("method not available on this plan"), true],
    ["ethers' UNSUPPORTED_OPERATION", makeError("unsupported operation", "UNSUPPORTED_OPERATION", { operation: "eth_simulateV1" }), true],
    ["another error answer", rpcError("header not found"), false],
    ["besu's -32004 for a gas wallet that cannot pay", rpcError("Upfront cost exceeds account balance", -32004), false],
    ["no connection", connectionRefused, false],
  ])("%s: %s", (_name, err, expected) => {
    expect(isUnsupportedMethod(new ChainCallError("eth_simulateV1", err))).toBe(expected);
  });
});

describe("state a full node no longer keeps", () => {
  it.each([
    ["geth", rpcError("missing trie node 8f2c… (path ) state 0x… is not available, not found"), true],
    ["reth", rpcError("state at block #1234 is pruned"), true],
    ["a provider's words", rpcError("historical state unavailable: archive node required"), true],
    ["a lagging node", rpcError("header not found"), false],
    ["no connection", connectionRefused, false],
  ])("%s: %s", (_name, err, expected) => {
    expect(isStateUnavailable(new ChainCallError("eth_getCode", err))).toBe(expected);
  });
});
