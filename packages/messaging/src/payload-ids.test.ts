import { payloadIds } from "./payload-ids";

const id = "0b6f0c1e-8f5e-4a38-9f55-2f1c1b2b8a11";

describe("payloadIds", () => {
  it.each([
    ["sweep.queued", { sweepId: id, chainId: 97, hotWalletId: id }, { sweepId: id, chainId: 97, hotWalletId: id }],
    ["revocation.queued", { revocationId: id, chainId: 97 }, { revocationId: id, chainId: 97 }],
    ["batch.ready", { batchId: id, chainId: 11155111 }, { batchId: id, chainId: 11155111 }],
    ["tx.outcome", { chainId: 97, transactionId: id }, { chainId: 97, transactionId: id }],
    ["batch.failed, whose reason is not an id", { batchId: id, chainId: 97, reason: "internal" }, { batchId: id, chainId: 97 }],
    ["event.recorded", { eventId: id }, { eventId: id }],
    ["an invalid id, kept as it came", { sweepId: "not-a-uuid" }, { sweepId: "not-a-uuid" }],
    ["an overlong string, cut", { batchId: "x".repeat(500) }, { batchId: "x".repeat(64) }],
    ["objects, booleans and unsafe numbers, left out", { sweepId: { $ne: 1 }, eventId: true, chainId: 2 ** 60 }, {}],
    ["fields that are no message's ids, left out", { partnerId: id, secret: "s" }, {}],
    ["an array", [id], {}],
    ["a string", id, {}],
    ["null", null, {}],
    ["no body (not JSON)", undefined, {}],
  ])("%s", (_what, body, expected) => {
    expect(payloadIds(body)).toEqual(expected);
  });
});
