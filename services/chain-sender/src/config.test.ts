import { ConfigError } from "@sweep/common";
import { loadChainSenderConfig } from "./config";

const kek = "11".repeat(32);

describe("chain-sender configuration", () => {
  it("has defaults for every timing", () => {
    expect(loadChainSenderConfig({})).toMatchObject({
      HEALTH_PORT: 8082,
      NONCE_GAP_GRACE_MS: 10_000,
      RPC_TIMEOUT_MS: 10_000,
      GAS_LIMIT_MARGIN_BPS: 2_000,
      LEADER_POLL_MS: 1_000,
    });
  });

  it("times each chain's watcher in its blocks: the registry's block time and thresholds, or that chain's variables", () => {
    const chains = loadChainSenderConfig({ BLOCK_TIME_MS_97: "1000", REPLACE_AFTER_BLOCKS_97: "15", DROP_AFTER_BLOCKS_97: "60" }).chains;
    expect(chains.map((c) => [c.chainId, c.blockTimeMs, c.replaceAfterBlocks, c.dropAfterBlocks])).toEqual([
      [11155111, 12_000, 3, 5],
      [97, 1_000, 15, 60],
    ]);
  });

  it("keeps gas wallet keys sealed by default, and takes a PKCS#11 token", () => {
    expect(loadChainSenderConfig({})).toMatchObject({ GAS_WALLET_KEYS: "sealed", pkcs11: undefined });
    const token = { PKCS11_LIBRARY: "/usr/lib/softhsm/libsofthsm2.so", PKCS11_TOKEN_LABEL: "gas", PKCS11_PIN: "1234" };
    expect(loadChainSenderConfig({ GAS_WALLET_KEYS: "pkcs11", ...token }).pkcs11).toEqual({ library: token.PKCS11_LIBRARY, tokenLabel: "gas", pin: "1234" });
  });

  it("takes the chains and key-encryption keys", () => {
    const config = loadChainSenderConfig({ CHAINS: "97", KEY_ENCRYPTION_KEY: kek, KEY_ENCRYPTION_KEYS_OLD: `${"22".repeat(32)},${Buffer.alloc(32, 3).toString("base64")}` });
    expect(config).toMatchObject({ CHAINS: [97], KEY_ENCRYPTION_KEY: kek });
  });

  it.each([
    [{ KEY_ENCRYPTION_KEY: "short" }, "KEY_ENCRYPTION_KEY"],
    [{ KEY_ENCRYPTION_KEYS_OLD: `${kek},nope` }, "KEY_ENCRYPTION_KEYS_OLD"],
    [{ NONCE_GAP_GRACE_MS: "soon" }, "NONCE_GAP_GRACE_MS"],
    [{ REPLACE_AFTER_BLOCKS_97: "soon" }, "REPLACE_AFTER_BLOCKS_97"],
    [{ BLOCK_TIME_MS_11155111: "0" }, "BLOCK_TIME_MS_11155111"],
    [{ GAS_LIMIT_MARGIN_BPS: "-1" }, "GAS_LIMIT_MARGIN_BPS"],
    [{ LEADER_POLL_MS: "5" }, "LEADER_POLL_MS"],
    [{ LEADER_POLL_MS: "20000" }, "LEADER_POLL_MS"],
    [{ GAS_WALLET_KEYS: "kms" }, "GAS_WALLET_KEYS"],
    [{ GAS_WALLET_KEYS: "pkcs11", PKCS11_LIBRARY: "/usr/lib/softhsm/libsofthsm2.so", PKCS11_TOKEN_LABEL: "t" }, "PKCS11_PIN is required"],
    [{ GAS_WALLET_KEYS: "pkcs11", PKCS11_PIN: "1234" }, "PKCS11_LIBRARY is required"],
  ])("refuses %j and names the variable", (env, variable) => {
    expect(() => loadChainSenderConfig(env)).toThrow(ConfigError);
    expect(() => loadChainSenderConfig(env)).toThrow(variable);
  });

  it("takes a treasury address per chain, EIP-55, and none where unset", () => {
    const treasury = "0x8ba1f109551bd432803012645ac136ddd64dba72";
    const config = loadChainSenderConfig({ TREASURY_ADDRESS_97: treasury, TREASURY_ADDRESS_11155111: "" });
    expect(config.chains.map((c) => [c.chainId, c.treasury])).toEqual([
      [11155111, null],
      [97, "0x8ba1f109551bD432803012645Ac136ddd64DBA72"],
    ]);
  });

  it.each([
    ["not an address", "treasury"],
    ["a bad checksum", "0x8Ba1f109551bD432803012645Ac136ddd64DBA72"],
    ["the zero address", "0x0000000000000000000000000000000000000000"],
  ])("refuses a treasury address that is %s, with the other bad variables", (_name, value) => {
    const load = () => loadChainSenderConfig({ TREASURY_ADDRESS_97: value, NONCE_GAP_GRACE_MS: "soon" });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/NONCE_GAP_GRACE_MS.*TREASURY_ADDRESS_97/);
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
