import { ChainCallError } from "@sweep/rpc";
import { AttemptFailure, failureReason } from "./attempt-failure";

const connectionRefused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8545"), { code: "ECONNREFUSED" });

describe("failure reasons", () => {
  it.each([
    ["this service's own verdict", new AttemptFailure("insufficient_gas_balance", "short"), "insufficient_gas_balance"],
    ["a node that failed a call", new ChainCallError("eth_getBalance", connectionRefused), "chain_unavailable"],
    ["a call that timed out", new ChainCallError("eth_call", new Error("no answer within 10000 ms")), "chain_unavailable"],
    ["anything else, never the node's words", new TypeError("Cannot read properties of undefined"), "internal"],
    ["not even an Error", "boom", "internal"],
  ])("%s", (_name, err, reason) => {
    expect(failureReason(err)).toBe(reason);
  });
});
