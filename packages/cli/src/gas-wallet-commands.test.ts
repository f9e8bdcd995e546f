import { randomBytes } from "node:crypto";
import { gasWalletKeyLabel, parseKek } from "@sweep/key-custody";
import type { Db } from "@sweep/db";
import { createSoftHsmToken, type SoftHsmToken } from "@sweep/testkit";
import type Redis from "ioredis";
import { importGasWalletKey } from "./gas-wallet-commands";
import { createPartner } from "./partner-commands";
import { openTestConnections, testContext } from "./test-support";

describe("gas-wallet import: a sealed gas wallet key moved into the PKCS#11 token", () => {
  let db: Db;
  let redis: Redis;
  let close: () => Promise<void>;
  let softhsm: SoftHsmToken;
  const kek = randomBytes(32).toString("hex");
  beforeAll(async () => {
    ({ db, redis, close } = await openTestConnections());
    softhsm = createSoftHsmToken();
  });
  afterAll(async () => {
    softhsm.remove();
    await close();
  });

  /** A partner as `partner create` makes it, its key sealed under `kek` (or in the token with the token's env). */
  async function partnerWith(env: Record<string, string> = { GAS_WALLET_KEYS: "sealed", KEY_ENCRYPTION_KEY: kek }) {
    const ctx = testContext(db, redis, env);
    await createPartner(ctx, "import");
    const { partner_id: partnerId } = ctx.out.results[0] as { partner_id: string };
    return { partnerId, gasWallet: await db.gasWallet.findUniqueOrThrow({ where: { partnerId } }) };
  }

  const importing = (partnerId: string, env: Record<string, string> = {}) => {
    const ctx = testContext(db, redis, { ...softhsm.env, KEY_ENCRYPTION_KEY: kek, ...env });
    return { ctx, done: importGasWalletKey(ctx, partnerId) };
  };

  function inToken<T>(use: (token: ReturnType<SoftHsmToken["open"]>) => T): T {
    const token = softhsm.open();
    try {
      return use(token);
    } finally {
      token.close();
    }
  }

  it("writes the key into the token under the gas wallet's label, checks it there, and only then moves the row, same address", async () => {
    const { partnerId, gasWallet } = await partnerWith();
    const { ctx, done } = importing(partnerId);
    await done;

    const label = gasWalletKeyLabel(gasWallet.id);
    expect(await db.gasWallet.findUniqueOrThrow({ where: { id: gasWallet.id } })).toMatchObject({ address: gasWallet.address, keyCustody: "pkcs11", keyLabel: label, encryptedKey: null, kekId: null });
    expect(ctx.out.results).toEqual([{ partner_id: partnerId, gas_wallet: gasWallet.address, key_custody: "pkcs11", key_label: label, token: softhsm.config.tokenLabel }]);
    expect(ctx.out.lines.join("\n")).toContain(`imported into PKCS#11 token "${softhsm.config.tokenLabel}" as ${label}`);
    expect(ctx.out.notes).toEqual([expect.stringMatching(/^Restart every chain-sender/), expect.stringMatching(/backups made before now still hold the sealed key/)]);

    inToken((token) => {
      const key = token.findKey(label);
      expect(key.address).toBe(gasWallet.address);
      expect(token.protection(key)).toEqual({ extractable: false, sensitive: true });
      expect(token.origin(key)).toEqual({ local: false, alwaysSensitive: false, neverExtractable: false });
    });

    // Done once: the row is not sealed any more.
    await expect(importing(partnerId).done).rejects.toThrow(`partner ${partnerId}'s gas wallet ${gasWallet.address} is not sealed: its key is held as pkcs11 (label ${label})`);
  });

  it("refuses a gas wallet whose key was generated in the token", async () => {
    const { partnerId } = await partnerWith(softhsm.env);
    await expect(importing(partnerId).done).rejects.toThrow(/is not sealed: its key is held as pkcs11/);
  });

  it("refuses when the token already holds an object with the wallet's label, and changes nothing", async () => {
    const { partnerId, gasWallet } = await partnerWith();
    const squatter = inToken((token) => token.generateKey(gasWalletKeyLabel(gasWallet.id)));
    await expect(importing(partnerId).done).rejects.toThrow(`already holds an object labelled ${gasWalletKeyLabel(gasWallet.id)}`);
    expect(await db.gasWallet.findUniqueOrThrow({ where: { id: gasWallet.id } })).toEqual(gasWallet);
    expect(inToken((token) => token.findKey(squatter.label).address)).toBe(squatter.address);
  });

  it.each([
    ["GAS_WALLET_KEYS=sealed", { GAS_WALLET_KEYS: "sealed" }, /run it with GAS_WALLET_KEYS=pkcs11 and PKCS11_LIBRARY, PKCS11_TOKEN_LABEL, PKCS11_PIN/],
    ["a wrong PIN", { PKCS11_PIN: "0000" }, /PKCS11_PIN was refused/],
    ["another KEY_ENCRYPTION_KEY", { KEY_ENCRYPTION_KEY: randomBytes(32).toString("hex") }, `no key-encryption key with id ${parseKek(kek).id}`],
    ["a malformed partner id", {}, /not a partner id/],
  ])("refuses with %s, writing nothing to the token or the row", async (name, env, message) => {
    const { partnerId, gasWallet } = await partnerWith();
    await expect(importing(name === "a malformed partner id" ? "42" : partnerId, env).done).rejects.toThrow(message);
    expect(await db.gasWallet.findUniqueOrThrow({ where: { id: gasWallet.id } })).toEqual(gasWallet);
    expect(() => inToken((token) => token.findKey(gasWalletKeyLabel(gasWallet.id)))).toThrow(/holds no key pair/);
  });

  it("refuses a configuration naming GAS_WALLET_KEYS=pkcs11 without every PKCS11_ variable", () => {
    expect(() => importing("00000000-0000-4000-8000-000000000000", { PKCS11_PIN: "", PKCS11_LIBRARY: "" })).toThrow(/PKCS11_LIBRARY is required; PKCS11_PIN is required/);
  });

  it("removes the token's key again when the row stopped being sealed meanwhile (as by an import into another token)", async () => {
    const { partnerId, gasWallet } = await partnerWith();
    const ctx = testContext(db, redis, { ...softhsm.env, KEY_ENCRYPTION_KEY: kek });
    const elsewhere = { keyCustody: "pkcs11", keyLabel: "in another token", encryptedKey: null, kekId: null };
    // The other import's update lands between this one's check in the token and its guarded update.
    const racedGasWallet = new Proxy(db.gasWallet, {
      get: (target, property, receiver) =>
        property === "updateMany"
          ? async (args: Parameters<Db["gasWallet"]["updateMany"]>[0]) => {
              await db.gasWallet.update({ where: { id: gasWallet.id }, data: elsewhere });
              return target.updateMany(args);
            }
          : Reflect.get(target, property, receiver),
    });
    const racedDb = new Proxy(db, { get: (target, property, receiver) => (property === "gasWallet" ? racedGasWallet : Reflect.get(target, property, receiver)) });
    await expect(importGasWalletKey({ ...ctx, config: ctx.config, db: racedDb }, partnerId)).rejects.toThrow(`gas wallet ${gasWallet.id} was changed meanwhile (no longer sealed)`);
    expect(await db.gasWallet.findUniqueOrThrow({ where: { id: gasWallet.id } })).toMatchObject(elsewhere);
    expect(() => inToken((token) => token.findKey(gasWalletKeyLabel(gasWallet.id)))).toThrow(/holds no key pair/);
  });
});
