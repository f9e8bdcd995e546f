import { accountKey } from "./batch-plan";
import { REVOCATION_BASE_GAS, REVOCATION_ITEM_GAS } from "./gas-budget";
import type { AccountState } from "./pre-send-checks";
import { planRevocations, type RevocationPlan } from "./revocation-plan";

const delegate = "0x52908400098527886E0F7030069857D2E4169EE7";
const otherDelegate = "0xde709f2102306220921060314715629080e2fb77";
const address = { A: "0x000000000000000000000000000000000000000A", B: "0x000000000000000000000000000000000000000b", C: "0x000000000000000000000000000000000000000C" };
type Who = keyof typeof address;

const delegatedTo = (to: string, nonce = 1): AccountState => ({ code: `0xef0100${to.slice(2)}`, nonce, nativeBalance: 0n });
const delegated = delegatedTo(delegate);
const plain: AccountState = { code: "0x", nonce: 1, nativeBalance: 0n };
const contract: AccountState = { code: "0x6080604052", nonce: 1, nativeBalance: 0n };

interface Row {
  /** [id, account, authorization nonce (null: cannot be sent)] */
  revocations: Array<[id: string, who: Who, nonce: number | null]>;
  accounts: Partial<Record<Who, AccountState>>;
  /** authorizations that fit; default plenty */
  fit?: number;
}

function plan(row: Row): RevocationPlan {
  return planRevocations({
    revocations: row.revocations.map(([id, who, authorizationNonce]) => ({ id, account: address[who], authorizationNonce })),
    accounts: new Map((Object.entries(row.accounts) as Array<[Who, AccountState]>).map(([who, state]) => [accountKey(address[who]), state])),
    gasBudget: REVOCATION_BASE_GAS + REVOCATION_ITEM_GAS * BigInt(row.fit ?? 1_000),
  });
}

describe("planning a revocation batch", () => {
  it.each<[string, Row, Partial<RevocationPlan>]>([
    ["a delegated account with the current nonce is revoked", { revocations: [["r1", "A", 1]], accounts: { A: delegated } }, { items: ["r1"] }],
    ["a delegation to any delegate is one to remove", { revocations: [["r1", "A", 4]], accounts: { A: delegatedTo(otherDelegate, 4) } }, { items: ["r1"] }],
    ["a plain account has nothing to remove", { revocations: [["r1", "A", 1]], accounts: { A: plain } }, { rejections: [{ revocationId: "r1", reason: "not_delegated" }] }],
    ["contract code is no delegation", { revocations: [["r1", "A", 1]], accounts: { A: contract } }, { rejections: [{ revocationId: "r1", reason: "not_delegated" }] }],
    ["an older nonce is stale", { revocations: [["r1", "A", 0]], accounts: { A: delegated } }, { rejections: [{ revocationId: "r1", reason: "stale_authorization" }] }],
    ["a newer nonce is stale", { revocations: [["r1", "A", 2]], accounts: { A: delegated } }, { rejections: [{ revocationId: "r1", reason: "stale_authorization" }] }],
    ["an authorization that cannot be sent is invalid", { revocations: [["r1", "A", null]], accounts: { A: delegated } }, { rejections: [{ revocationId: "r1", reason: "invalid_authorization" }] }],
    ["invalid needs no chain read", { revocations: [["r1", "A", null]], accounts: {} }, { rejections: [{ revocationId: "r1", reason: "invalid_authorization" }] }],
    ["an account not read waits", { revocations: [["r1", "A", 1]], accounts: {} }, { waiting: [{ revocationId: "r1", reason: "unread" }] }],
    [
      "several accounts share one batch, in arrival order",
      { revocations: [["r1", "B", 1], ["r2", "A", 1], ["r3", "C", 7]], accounts: { A: delegated, B: delegated, C: delegatedTo(otherDelegate, 7) } },
      { items: ["r1", "r2", "r3"] },
    ],
    [
      "one revocation per account: the next one waits",
      { revocations: [["r1", "A", 1], ["r2", "A", 1], ["r3", "B", 1]], accounts: { A: delegated, B: delegated } },
      { items: ["r1", "r3"], waiting: [{ revocationId: "r2", reason: "account_in_batch" }] },
    ],
    [
      "a rejected revocation leaves its account to the next one",
      { revocations: [["r1", "A", 0], ["r2", "A", 1]], accounts: { A: delegated } },
      { items: ["r2"], rejections: [{ revocationId: "r1", reason: "stale_authorization" }] },
    ],
    [
      "a full batch leaves the rest waiting; rejections are decided all the same",
      { revocations: [["r1", "A", 1], ["r2", "B", 1], ["r3", "C", 0]], accounts: { A: delegated, B: delegated, C: delegated }, fit: 1 },
      { items: ["r1"], waiting: [{ revocationId: "r2", reason: "gas_limit" }], rejections: [{ revocationId: "r3", reason: "stale_authorization" }] },
    ],
    ["one authorization goes even past the budget", { revocations: [["r1", "A", 1]], accounts: { A: delegated }, fit: 0 }, { items: ["r1"] }],
  ])("%s", (_name, row, expected) => {
    expect(plan(row)).toEqual({ items: [], rejections: [], waiting: [], ...expected });
  });

  it("matches an account read in another case", () => {
    const result = planRevocations({
      revocations: [{ id: "r1", account: address.B.toUpperCase().replace("0X", "0x"), authorizationNonce: 1 }],
      accounts: new Map([[accountKey(address.B), delegated]]),
      gasBudget: 10n ** 9n,
    });
    expect(result.items).toEqual(["r1"]);
  });
});
