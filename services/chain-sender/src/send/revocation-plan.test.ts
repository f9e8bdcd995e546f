import { Wallet, ZeroAddress, type BaseWallet } from "ethers";
import { revocationAuthorizations, revocationOutcome, type RevocationItemRow } from "./revocation-plan";

const owners = [Wallet.createRandom(), Wallet.createRandom()];

function row(position: number, owner: BaseWallet, nonce = 0): RevocationItemRow {
  const { signature } = owner.authorizeSync({ address: ZeroAddress, nonce, chainId: 97n });
  return {
    position,
    revocationId: `revocation-${position}`,
    account: owner.address,
    authorization: { chain_id: 97, address: ZeroAddress, nonce, y_parity: signature.yParity, r: signature.r, s: signature.s },
  };
}

describe("revocation plan", () => {
  it("carries every item's authorization of the zero address, in the items' order", () => {
    const list = revocationAuthorizations([row(0, owners[0]!, 4), row(1, owners[1]!, 1)])!;
    expect(list.map((a) => [a.address, a.nonce, a.chainId])).toEqual([
      [ZeroAddress, 4n, 97n],
      [ZeroAddress, 1n, 97n],
    ]);
    expect(list[0]!.signature.serialized).toBe(owners[0]!.authorizeSync({ address: ZeroAddress, nonce: 4n, chainId: 97n }).signature.serialized);
  });

  it.each([
    ["none stored", null],
    ["a missing signature part", { chain_id: 97, address: ZeroAddress, nonce: 0, y_parity: 0, r: "0x01" }],
    ["a bad address", { chain_id: 97, address: "0x12", nonce: 0, y_parity: 0, r: "0x01", s: "0x01" }],
  ])("has no list when one item's authorization is unreadable: %s", (_name, json) => {
    expect(revocationAuthorizations([row(0, owners[0]!), { ...row(1, owners[1]!), authorization: json }])).toBeNull();
  });

  it("has an empty list for no items", () => {
    expect(revocationAuthorizations([])).toEqual([]);
  });

  it.each([
    ["no code", "0x", "revoked"],
    ["a delegation designator", `0xef0100${"ab".repeat(20)}`, "not_applied"],
    ["contract code", "0x6080604052", "not_applied"],
  ])("an account with %s after the transaction is %s", (_name, code, outcome) => {
    expect(revocationOutcome(code)).toBe(outcome);
  });
});
