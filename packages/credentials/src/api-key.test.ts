import { apiKeyDisplayPrefix, apiKeyEnvironment, generateApiKey, hashApiKey, isWellFormedApiKey, sameHash } from "./api-key";

describe("API keys", () => {
  it.each([
    ["testnet", "svc_test_"],
    ["mainnet", "svc_live_"],
  ] as const)("a %s key starts with %s and carries 32 random bytes", (environment, prefix) => {
    const key = generateApiKey(environment);
    expect(key.startsWith(prefix)).toBe(true);
    expect(Buffer.from(key.slice(prefix.length), "base64url")).toHaveLength(32);
    expect(apiKeyEnvironment(key)).toBe(environment);
    expect(generateApiKey(environment)).not.toBe(key);
  });

  it.each([["sk_test_abc"], [""], ["svc_abc"], ["Bearer svc_test_x"]])("%j claims no environment", (key) => {
    expect(apiKeyEnvironment(key)).toBeNull();
  });

  const body = "A".repeat(42);
  it.each([
    ["a testnet key", generateApiKey("testnet"), true],
    ["a mainnet key", generateApiKey("mainnet"), true],
    ["43 characters ending in a letter that carries zero bits", `svc_test_${body}w`, true],
    ["a last letter with bits past the 32 bytes", `svc_test_${body}B`, false],
    ["one character short", `svc_test_${body.slice(1)}A`, false],
    ["one character long", `svc_test_${body}AA`, false],
    ["a character outside base64url", `svc_test_${body.slice(1)}+A`, false],
    ["padding", `svc_test_${body.slice(1)}A=`, false],
    ["no prefix of ours", `sk_test_${body}A`, false],
    ["the prefix alone", "svc_test_", false],
    ["a short made-up key", "svc_test_doesnotexist", false],
  ])("isWellFormedApiKey: %s is %s", (_what, key, wellFormed) => {
    expect(isWellFormedApiKey(key)).toBe(wellFormed);
  });

  it("compares hashes, not keys", () => {
    const key = generateApiKey("testnet");
    expect(sameHash(hashApiKey(key), hashApiKey(key))).toBe(true);
    expect(sameHash(hashApiKey(key), hashApiKey(key + "x"))).toBe(false);
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("shows only the prefix and six characters", () => {
    expect(apiKeyDisplayPrefix("svc_test_abcdefghijk")).toBe("svc_test_abcdef");
  });
});
