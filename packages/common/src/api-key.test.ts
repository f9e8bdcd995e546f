import { apiKeyDisplayPrefix, apiKeyEnvironment, generateApiKey, hashApiKey, sameHash } from "./api-key";

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
