import { Wallet, concat, toBeHex } from "ethers";
import { NATIVE_TOKEN, encodeSweepBatch, encodeSweepItems, sweepDelegateInterface, type SweepItem } from "../src";

const account = Wallet.createRandom().address;
const other = Wallet.createRandom().address;
const token = Wallet.createRandom().address;
const item = (extra: Partial<SweepItem>): SweepItem => ({ account, token, amount: 0n, keepOneUnit: false, ...extra });

describe("encodeSweepItems", () => {
  test("a token item: flags, account, the token's options and address, and the amount in as few bytes as it needs", () => {
    expect(encodeSweepItems([item({ amount: 1000n })])).toBe(concat(["0x02", account, "0x00", token, "0x03e8"]).toLowerCase());
  });

  test("the whole balance takes no amount bytes; keep-one-unit sets the top flag", () => {
    expect(encodeSweepItems([item({ keepOneUnit: true })])).toBe(concat(["0x80", account, "0x00", token]).toLowerCase());
  });

  test("a token repeating the previous item's is left out", () => {
    const encoded = encodeSweepItems([item({}), item({ account: other, keepOneUnit: true }), item({ token: NATIVE_TOKEN })]);
    expect(encoded).toBe(concat(["0x00", account, "0x00", token, "0xc0", other, "0x00", account, "0x00", NATIVE_TOKEN]).toLowerCase());
  });

  test("a fee-on-transfer token sets its option bit, and a change of that option repeats the token", () => {
    const encoded = encodeSweepItems([item({ feeOnTransfer: true }), item({ account: other, feeOnTransfer: true }), item({})]);
    expect(encoded).toBe(concat(["0x00", account, "0x01", token, "0x40", other, "0x00", account, "0x00", token]).toLowerCase());
  });

  test("the native coin takes no fee-on-transfer option", () => {
    expect(encodeSweepItems([item({ token: NATIVE_TOKEN, feeOnTransfer: true })])).toBe(concat(["0x40", account]).toLowerCase());
  });

  test("the native coin before any token counts as a repeat, since the previous token starts as native", () => {
    expect(encodeSweepItems([item({ token: NATIVE_TOKEN, amount: 5n })])).toBe(concat(["0x41", account, "0x05"]).toLowerCase());
  });

  test("the largest amount takes 32 bytes", () => {
    const max = (1n << 256n) - 1n;
    expect(encodeSweepItems([item({ amount: max })])).toBe(concat(["0x20", account, "0x00", token, toBeHex(max, 32)]).toLowerCase());
  });

  test("addresses in any letter case encode alike", () => {
    expect(encodeSweepItems([item({ account: account.toLowerCase(), token: token.toUpperCase().replace("0X", "0x") })])).toBe(encodeSweepItems([item({})]));
  });

  test("no items encode to empty bytes", () => {
    expect(encodeSweepItems([])).toBe("0x");
  });

  test("rejects amounts outside uint256 and malformed addresses", () => {
    expect(() => encodeSweepItems([item({ amount: -1n })])).toThrow(RangeError);
    expect(() => encodeSweepItems([item({ amount: 1n << 256n })])).toThrow(RangeError);
    expect(() => encodeSweepItems([item({ account: "0x1234" })])).toThrow();
  });
});

describe("encodeSweepBatch", () => {
  test("is the sweepBatch call with the packed items", () => {
    const items = [item({ amount: 7n }), item({ account: other })];
    const data = encodeSweepBatch(items);
    const call = sweepDelegateInterface.parseTransaction({ data })!;
    expect(call.name).toBe("sweepBatch");
    expect(call.args[0]).toBe(encodeSweepItems(items));
  });
});
