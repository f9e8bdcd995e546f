import { bearerKey, keyClaimsEnvironment, keyVerdict, type ApiKeyRecord } from "./api-key-verdict";

const record: ApiKeyRecord = { hash: "ab", partnerId: "p", revoked: false, enabled: true, environment: "testnet", gasWallet: "0xG" };

describe("bearerKey", () => {
  it.each([
    ["Bearer svc_test_abc-_9", "svc_test_abc-_9"],
    ["bearer svc_test_abc", "svc_test_abc"],
    ["BEARER  svc_test_abc ", "svc_test_abc"],
    [undefined, null],
    ["", null],
    ["svc_test_abc", null],
    ["Basic c3ZjOg==", null],
    ["Bearer", null],
    ["Bearer svc test", null],
    ["Bearer svc_test_abc\u00e9", null],
  ])("reads %j as %j", (header, key) => {
    expect(bearerKey(header)).toBe(key);
  });
});

describe("keyClaimsEnvironment", () => {
  it.each([
    ["svc_test_x", "testnet", true],
    ["svc_live_x", "testnet", false],
    ["svc_live_x", "mainnet", true],
    ["svc_test_x", "mainnet", false],
    ["sk_test_x", "testnet", false],
  ] as const)("%s on %s: %s", (key, environment, claims) => {
    expect(keyClaimsEnvironment(key, environment)).toBe(claims);
  });
});

describe("keyVerdict", () => {
  it.each<[string, ApiKeyRecord | null, string]>([
    ["an unknown key", null, "unauthorized"],
    ["a revoked key", { ...record, revoked: true }, "unauthorized"],
    ["a revoked key of a disabled partner", { ...record, revoked: true, enabled: false }, "unauthorized"],
    ["a key of a mainnet partner", { ...record, environment: "mainnet" }, "unauthorized"],
    ["a key of a disabled partner", { ...record, enabled: false }, "partner_disabled"],
  ])("refuses %s", (_what, found, code) => {
    expect(keyVerdict(found, "testnet")).toMatchObject({ ok: false, code });
  });

  it("admits a live key of an enabled partner of this environment", () => {
    expect(keyVerdict(record, "testnet")).toEqual({ ok: true, partner: { partnerId: "p", gasWallet: "0xG", limitKey: "ab" } });
  });
});
