import { ConfigError } from "@sweep/common";
import { loadChainSenderConfig } from "./config";

const kek = "11".repeat(32);

describe("chain-sender configuration", () => {
  it("has defaults for every timing", () => {
    expect(loadChainSenderConfig({})).toMatchObject({
      HEALTH_PORT: 8082,
      WATCH_INTERVAL_MS: 500,
      REPLACE_AFTER_MS: 15_000,
      NONCE_GAP_GRACE_MS: 10_000,
      DROP_AFTER_MS: 60_000,
      RPC_TIMEOUT_MS: 10_000,
      GAS_LIMIT_MARGIN_BPS: 2_000,
    });
  });

  it("takes the chains and key-encryption keys", () => {
    const config = loadChainSenderConfig({ CHAINS: "97", KEY_ENCRYPTION_KEY: kek, KEY_ENCRYPTION_KEYS_OLD: `${"22".repeat(32)},${Buffer.alloc(32, 3).toString("base64")}` });
    expect(config).toMatchObject({ CHAINS: [97], KEY_ENCRYPTION_KEY: kek });
  });

  it.each([
    [{ KEY_ENCRYPTION_KEY: "short" }, "KEY_ENCRYPTION_KEY"],
    [{ KEY_ENCRYPTION_KEYS_OLD: `${kek},nope` }, "KEY_ENCRYPTION_KEYS_OLD"],
    [{ REPLACE_AFTER_MS: "soon" }, "REPLACE_AFTER_MS"],
    [{ GAS_LIMIT_MARGIN_BPS: "-1" }, "GAS_LIMIT_MARGIN_BPS"],
  ])("refuses %j and names the variable", (env, variable) => {
    expect(() => loadChainSenderConfig(env)).toThrow(ConfigError);
    expect(() => loadChainSenderConfig(env)).toThrow(variable);
  });

  it("never repeats a key in its error message", () => {
    try {
      loadChainSenderConfig({ KEY_ENCRYPTION_KEY: "x".repeat(40) });
      throw new Error("expected a ConfigError");
    } catch (err) {
      expect((err as Error).message).not.toContain("x".repeat(40));
    }
  });
});
