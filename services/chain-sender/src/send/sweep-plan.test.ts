import { NATIVE_TOKEN, type SweepOutcome } from "@sweep/contracts";
import { Wallet, getAddress, type BaseWallet } from "ethers";
import { authorizationList, matchOutcomes, parseStoredAuthorization, planItems, splitBySimulation, type BatchItemRow } from "./sweep-plan";

const token = getAddress("0x9e246e43fd408eba9868f50d72fd63a5a8436340");
const delegate = getAddress("0xc1168f984bcd6db257d1d7e27f840dede902b266");
const owners = [Wallet.createRandom(), Wallet.createRandom(), Wallet.createRandom()];

function stored(owner: BaseWallet, nonce = 0) {
  const auth = owner.authorizeSync({ address: delegate, nonce, chainId: 97n });
  return { chain_id: 97, address: delegate, nonce, y_parity: auth.signature.yParity, r: auth.signature.r, s: auth.signature.s };
}

function row(position: number, owner: BaseWallet, over: Partial<BatchItemRow["sweep"]> = {}, withAuthorization = true): BatchItemRow {
  return {
    position,
    sweepId: `sweep-${position}`,
    withAuthorization,
    sweep: { account: owner.address.toLowerCase(), tokenAddress: token, amount: null, keepOneUnit: false, authorization: stored(owner), ...over },
  };
}

const swept = (account: string): SweepOutcome => ({ account, gasUsed: 30_000n, swept: true, amount: 5n });
const failed = (account: string): SweepOutcome => ({ account, gasUsed: 2_600n, swept: false, reason: "reverted", selector: "0x00000000" });

describe("sweep plan", () => {
  it("reads a stored authorization back into the signed one", () => {
    const auth = parseStoredAuthorization(stored(owners[0]!, 3))!;
    expect(auth).toMatchObject({ address: delegate, nonce: 3n, chainId: 97n });
    const signed = owners[0]!.authorizeSync({ address: delegate, nonce: 3n, chainId: 97n });
    expect(auth.signature.serialized).toBe(signed.signature.serialized);
  });

  it.each([
    ["none", null],
    ["a missing field", { chain_id: 97, address: delegate, nonce: 0, y_parity: 0, r: "0x01" }],
    ["a bad parity", { chain_id: 97, address: delegate, nonce: 0, y_parity: 2, r: "0x01", s: "0x01" }],
    ["a bad address", { chain_id: 97, address: "0x12", nonce: 0, y_parity: 0, r: "0x01", s: "0x01" }],
  ])("has no authorization for %s", (_name, json) => {
    expect(parseStoredAuthorization(json)).toBeNull();
  });

  it("orders items by position and encodes native coin, whole balances and amounts", () => {
    const planned = planItems([
      row(2, owners[2]!, { tokenAddress: null, amount: null }, false),
      row(0, owners[0]!, { amount: 10n, keepOneUnit: true }),
      row(1, owners[1]!, {}, false),
    ]);
    expect(planned.map((p) => p.position)).toEqual([0, 1, 2]);
    expect(planned.map((p) => p.item)).toEqual([
      { account: owners[0]!.address, token, amount: 10n, keepOneUnit: true, feeOnTransfer: false },
      { account: owners[1]!.address, token, amount: 0n, keepOneUnit: false, feeOnTransfer: false },
      { account: owners[2]!.address, token: NATIVE_TOKEN, amount: 0n, keepOneUnit: false, feeOnTransfer: false },
    ]);
    expect(planned.map((p) => p.authorization !== null)).toEqual([true, false, false]);
  });

  it("marks the items of a fee-on-transfer token, whatever the case of its stored address", () => {
    const other = getAddress("0x55d398326f99059ff775485246999027b3197955");
    const planned = planItems([row(0, owners[0]!), row(1, owners[1]!, { tokenAddress: other }), row(2, owners[2]!, { tokenAddress: null })], new Set([token.toLowerCase()]));
    expect(planned.map((p) => p.item.feeOnTransfer)).toEqual([true, false, false]);
  });

  it("keeps the items that would go through and the authorizations of the accounts still carried, each once", () => {
    const planned = planItems([row(0, owners[0]!), row(1, owners[1]!), row(2, owners[0]!, { tokenAddress: null }), row(3, owners[2]!)]);
    const split = splitBySimulation(planned, [failed(owners[0]!.address), swept(owners[1]!.address), swept(owners[0]!.address), failed(owners[2]!.address)])!;
    expect(split.kept.map((p) => p.sweepId)).toEqual(["sweep-1", "sweep-2"]);
    expect(split.dropped.map((p) => p.sweepId)).toEqual(["sweep-0", "sweep-3"]);
    // Owner 0's first item is dropped but its authorization still delegates the account for the kept native item.
    const list = authorizationList(planned, split.kept);
    expect(list.map((a) => a.signature.r)).toEqual([planned[0]!.authorization!.signature.r, planned[1]!.authorization!.signature.r]);
  });

  it("refuses outcomes that do not line up with the items", () => {
    const planned = planItems([row(0, owners[0]!), row(1, owners[1]!)]);
    expect(splitBySimulation(planned, [swept(owners[0]!.address)])).toBeNull();
    expect(splitBySimulation(planned, [swept(owners[1]!.address), swept(owners[0]!.address)])).toBeNull();
    expect(matchOutcomes([{ account: owners[0]!.address.toLowerCase() }], [swept(owners[0]!.address)])).toHaveLength(1);
    expect(matchOutcomes([{ account: owners[0]!.address }], [])).toBeNull();
  });
});
