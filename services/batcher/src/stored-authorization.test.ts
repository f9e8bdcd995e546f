import { revocationAuthorizationNonce } from "./stored-authorization";

const zero = `0x${"0".repeat(40)}`;
const signed = { chain_id: 97, address: zero, nonce: 3, y_parity: 1, r: `0x${"1".repeat(64)}`, s: `0x${"2".repeat(64)}` };

describe("a revocation's stored authorization", () => {
  it.each<[string, unknown, number | null]>([
    ["of the zero address on this chain", signed, 3],
    ["nonce 0", { ...signed, nonce: 0 }, 0],
    ["of a delegate: it would delegate, not revoke", { ...signed, address: "0x52908400098527886E0F7030069857D2E4169EE7" }, null],
    ["of another chain", { ...signed, chain_id: 56 }, null],
    ["of any chain (0)", { ...signed, chain_id: 0 }, null],
    ["without a signature", { chain_id: 97, address: zero, nonce: 3 }, null],
    ["with a negative nonce", { ...signed, nonce: -1 }, null],
    ["with a y_parity of 27", { ...signed, y_parity: 27 }, null],
    ["not an object", "0xdeadbeef", null],
    ["null", null, null],
  ])("%s: nonce %p", (_name, stored, expected) => {
    expect(revocationAuthorizationNonce(stored, 97)).toBe(expected);
  });
});
