import { getAddress } from "ethers";
import { authorizationStatus, checkBalance, delegationOf, firstKind, isDelegatedTo, type AccountState } from "./pre-send-checks";
import { authorizationClaim } from "./stored-authorization";

const delegate = "0x52908400098527886E0F7030069857D2E4169EE7";
const other = "0xde709f2102306220921060314715629080e2fb77";
const designator = (to: string) => `0xef0100${to.slice(2)}`;
const plain: AccountState = { code: "0x", nonce: 0, nativeBalance: 0n };

describe("delegation from eth_getCode", () => {
  it.each([
    ["0x", { kind: "none" }],
    [designator(delegate), { kind: "delegated", to: delegate }],
    [designator(delegate).toUpperCase().replace("0X", "0x"), { kind: "delegated", to: delegate }],
    [designator(other), { kind: "delegated", to: getAddress(other) }],
    ["0xef0100", { kind: "contract" }],
    [`${designator(delegate)}00`, { kind: "contract" }],
    ["0x6080604052", { kind: "contract" }],
  ])("%s is %j", (code, expected) => {
    expect(delegationOf(code)).toEqual(expected);
  });

  it.each([
    [designator(delegate), true],
    [designator(delegate.toLowerCase()), true],
    [designator(other), false],
    ["0x", false],
    ["0x6080604052", false],
  ])("code %s delegates to this delegate: %s", (code, expected) => {
    expect(isDelegatedTo({ ...plain, code }, delegate)).toBe(expected);
  });
});

describe("authorization against the address's nonce", () => {
  it.each([
    ["none sent", null, 3, "absent"],
    ["same nonce", { address: delegate, nonce: 3 }, 3, "usable"],
    ["address in another case", { address: delegate.toLowerCase(), nonce: 0 }, 0, "usable"],
    ["older nonce", { address: delegate, nonce: 2 }, 3, "stale"],
    ["newer nonce", { address: delegate, nonce: 4 }, 3, "stale"],
    ["another delegate", { address: other, nonce: 3 }, 3, "absent"],
  ] as const)("%s: %s", (_what, authorization, nonce, expected) => {
    expect(authorizationStatus(authorization, { ...plain, nonce }, delegate)).toBe(expected);
  });
});

describe("kind of the sweep that delegates", () => {
  it.each([
    ["nothing at all", plain, "first_new"],
    ["a nonce", { ...plain, nonce: 1 }, "first"],
    ["native coin", { ...plain, nativeBalance: 1n }, "first"],
    ["delegated elsewhere", { ...plain, code: designator(other) }, "first"],
  ] as const)("an address with %s is %s", (_what, state, expected) => {
    expect(firstKind(state)).toBe(expected);
  });
});

describe("balance against the requested amount", () => {
  const token = { amount: null, keepOneUnit: false, native: false };
  it.each([
    ["whole token balance", 100n, token, { ok: true, moves: 100n }],
    ["whole balance keeping one unit", 100n, { ...token, keepOneUnit: true }, { ok: true, moves: 99n }],
    ["an amount below the balance", 100n, { ...token, amount: 40n }, { ok: true, moves: 40n }],
    ["exactly the balance", 100n, { ...token, amount: 100n }, { ok: true, moves: 100n }],
    ["more than the balance", 100n, { ...token, amount: 101n }, { ok: false, reason: "would_fail" }],
    ["the whole balance while keeping one unit", 100n, { ...token, amount: 100n, keepOneUnit: true }, { ok: false, reason: "would_fail" }],
    ["an empty address", 0n, token, { ok: false, reason: "nothing_to_sweep" }],
    ["an amount from an empty address", 0n, { ...token, amount: 5n }, { ok: false, reason: "nothing_to_sweep" }],
    ["one unit kept of one unit", 1n, { ...token, keepOneUnit: true }, { ok: false, reason: "nothing_to_sweep" }],
    ["native: keep_one_unit ignored", 1n, { amount: null, keepOneUnit: true, native: true }, { ok: true, moves: 1n }],
    ["native: more than the balance", 10n, { amount: 11n, keepOneUnit: false, native: true }, { ok: false, reason: "would_fail" }],
    ["native: empty", 0n, { amount: null, keepOneUnit: false, native: true }, { ok: false, reason: "nothing_to_sweep" }],
    ["a 256-bit balance", (1n << 256n) - 1n, token, { ok: true, moves: (1n << 256n) - 1n }],
  ] as const)("%s", (_what, balance, request, expected) => {
    expect(checkBalance(balance, request)).toEqual(expected);
  });
});

describe("stored authorization", () => {
  const stored = { chain_id: 97, address: delegate, nonce: 7, y_parity: 1, r: `0x${"1".repeat(64)}`, s: `0x${"2".repeat(64)}` };
  it.each([
    ["as the API stores it", stored, { address: delegate, nonce: 7 }],
    ["none", null, null],
    ["without a nonce", { ...stored, nonce: undefined }, null],
    ["with a negative nonce", { ...stored, nonce: -1 }, null],
    ["not an object", "0x1234", null],
  ])("%s", (_what, value, expected) => {
    expect(authorizationClaim(value)).toEqual(expected);
  });
});
