import { readStoredAuthorization } from "./stored-authorization";

/** As the API writes it: the request's chain, an EIP-55 address, r and s as 32-byte lowercase words. */
const stored = { chain_id: 97, address: "0xc1168f984BCD6db257d1d7e27F840Dede902B266", nonce: 7, y_parity: 1, r: `0x${"1".repeat(64)}`, s: `0x${"2".repeat(64)}` };

describe("a stored authorization", () => {
  it.each<[string, unknown, boolean]>([
    ["as the API stores it", stored, true],
    ["nonce 0", { ...stored, nonce: 0 }, true],
    ["y_parity 0", { ...stored, y_parity: 0 }, true],
    ["an address in lower case", { ...stored, address: stored.address.toLowerCase() }, true],
    ["the zero address (a revocation's)", { ...stored, address: `0x${"0".repeat(40)}` }, true],
    // chain 0 is read here; the API never stores it, the batcher and the chain-sender refuse it at their edges
    ["chain 0", { ...stored, chain_id: 0 }, true],
    ["a short r (read; ethers pads it)", { ...stored, r: "0x01" }, true],
    ["none", null, false],
    ["not an object", "0x1234", false],
    ["without a nonce", { ...stored, nonce: undefined }, false],
    ["a negative nonce", { ...stored, nonce: -1 }, false],
    ["a fractional nonce", { ...stored, nonce: 1.5 }, false],
    ["a nonce as a string", { ...stored, nonce: "7" }, false],
    ["a fractional chain", { ...stored, chain_id: 97.5 }, false],
    ["a y_parity of 27", { ...stored, y_parity: 27 }, false],
    ["a y_parity of 2", { ...stored, y_parity: 2 }, false],
    ["without a signature", { chain_id: 97, address: stored.address, nonce: 7 }, false],
    ["without s", { ...stored, s: undefined }, false],
    ["a short address", { ...stored, address: "0x12" }, false],
    ["an address without 0x", { ...stored, address: stored.address.slice(2) }, false],
  ])("%s: read %p", (_what, value, read) => {
    expect(readStoredAuthorization(value) !== null).toBe(read);
  });

  it("reads back what was stored", () => {
    expect(readStoredAuthorization(stored)).toEqual(stored);
  });
});
