import { randomUUID } from "node:crypto";
import { revocationRoundKey, roundByKey, roundTarget } from "./round-keys";

describe("round keys", () => {
  const partnerId = randomUUID();

  it.each([
    ["a hot wallet id", "0b7c3f1e-4a5d-4e2b-9c1a-2f3e4d5c6b7a", { kind: "sweeps", hotWalletId: "0b7c3f1e-4a5d-4e2b-9c1a-2f3e4d5c6b7a" }],
    ["a partner's revocations on a chain", revocationRoundKey(partnerId, 97), { kind: "revocations", partnerId, chainId: 97 }],
    ["a partner's revocations on another chain", revocationRoundKey(partnerId, 11155111), { kind: "revocations", partnerId, chainId: 11155111 }],
  ])("%s", (_name, key, expected) => {
    expect(roundTarget(key)).toEqual(expected);
  });

  it("keeps the revocation rounds of one partner on two chains apart", () => {
    expect(revocationRoundKey(partnerId, 97)).not.toBe(revocationRoundKey(partnerId, 56));
  });

  it.each(["revocations:", `revocations:${partnerId}`, `revocations:${partnerId}:x`, `revocations:${partnerId}:97:1`])("refuses the malformed key %s", (key) => {
    expect(() => roundTarget(key)).toThrow("malformed revocation round key");
  });

  it("hands each key to the round of its kind", async () => {
    const ran: unknown[] = [];
    const round = roundByKey({
      sweeps: async (hotWalletId) => ran.push(["sweeps", hotWalletId]),
      revocations: async (target) => ran.push(["revocations", target]),
    });
    await round("hw-1");
    await round(revocationRoundKey(partnerId, 97));
    expect(ran).toEqual([
      ["sweeps", "hw-1"],
      ["revocations", { partnerId, chainId: 97 }],
    ]);
  });
});
