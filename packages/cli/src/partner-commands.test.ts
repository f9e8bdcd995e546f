import { randomBytes, randomUUID } from "node:crypto";
import { gasWalletKeyLabel, parseKek, resolveKeks, storedKeySigner } from "@sweep/key-custody";
import { apiKeyCacheKey, hashApiKey } from "@sweep/credentials";
import type { Db } from "@sweep/db";
import { queueNames } from "@sweep/messaging";
import { Wallet } from "ethers";
import type Redis from "ioredis";
import { createSoftHsmToken } from "@sweep/testkit";
import { createPartner, setPartnerEnabled } from "./partner-commands";
import { openTestConnections, testContext } from "./test-support";

interface Created {
  partner_id: string;
  api_key: string;
  key_id: string;
  gas_wallet: string;
}

describe("partner commands", () => {
  let db: Db;
  let redis: Redis;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, redis, close } = await openTestConnections()));
  afterAll(() => close());

  async function create(name: string, env: NodeJS.ProcessEnv = {}) {
    const ctx = testContext(db, redis, env);
    await createPartner(ctx, name);
    return { created: ctx.out.results[0] as Created, out: ctx.out };
  }

  it("creates a partner with its gas wallet and an API key, in the service's environment", async () => {
    const kek = randomBytes(32).toString("hex");
    const { created, out } = await create("Acme", { KEY_ENCRYPTION_KEY: kek });

    expect(created.api_key).toMatch(/^svc_test_/);
    const partner = await db.partner.findUniqueOrThrow({ where: { id: created.partner_id }, include: { gasWallet: true, apiKeys: true } });
    expect(partner).toMatchObject({ name: "Acme", environment: "testnet", enabled: true });
    expect(partner.apiKeys).toEqual([expect.objectContaining({ id: created.key_id, hash: hashApiKey(created.api_key), prefix: created.api_key.slice(0, 15), revokedAt: null })]);
    expect(partner.gasWallet).toMatchObject({ address: created.gas_wallet, kekId: parseKek(kek).id });
    expect(out.notes).toEqual([]);
    expect(out.lines.join("\n")).toContain(created.api_key);
    expect(out.lines.join("\n")).toContain(`(id ${created.key_id}: revoke it by that)`);
  });

  it("seals the gas wallet key so that it decrypts to the gas wallet's address", async () => {
    const kek = randomBytes(32).toString("base64");
    const { created } = await create("Sealed", { KEY_ENCRYPTION_KEY: kek });
    const wallet = await db.gasWallet.findUniqueOrThrow({ where: { partnerId: created.partner_id } });
    expect(wallet.encryptedKey).not.toMatch(/^0x/);
    const keks = resolveKeks({ SERVICE_ENV: "testnet", KEY_ENCRYPTION_KEY: kek }, () => {});
    expect(storedKeySigner({ address: wallet.address, encryptedKey: wallet.encryptedKey!, kekId: wallet.kekId! }, keks.all).address).toBe(created.gas_wallet);
  });

  it("generates the gas wallet key in the PKCS#11 token when GAS_WALLET_KEYS=pkcs11, never extractable, labelled by the gas wallet", async () => {
    const softhsm = createSoftHsmToken();
    try {
      const { created } = await create("In a token", softhsm.env);
      const wallet = await db.gasWallet.findUniqueOrThrow({ where: { partnerId: created.partner_id } });
      expect(wallet).toMatchObject({ address: created.gas_wallet, keyCustody: "pkcs11", keyLabel: gasWalletKeyLabel(wallet.id), encryptedKey: null, kekId: null });
      const token = softhsm.open();
      try {
        const key = token.findKey(wallet.keyLabel!);
        expect(key.address).toBe(created.gas_wallet);
        expect(token.protection(key)).toEqual({ extractable: false, sensitive: true });
      } finally {
        token.close();
      }
      await expect(create("Wrong PIN", { ...softhsm.env, PKCS11_PIN: "0000" })).rejects.toThrow(/PKCS11_PIN was refused/);
    } finally {
      softhsm.remove();
    }
  });

  it("falls back to the development key on testnet only, and says so loudly", async () => {
    const { created, out } = await create("No KEK", { KEY_ENCRYPTION_KEY: "" });
    expect(out.notes.join("\n")).toMatch(/WARNING: KEY_ENCRYPTION_KEY is not set/);
    expect(await db.gasWallet.findUniqueOrThrow({ where: { partnerId: created.partner_id } })).toMatchObject({ kekId: "dev-insecure" });

    const name = `mainnet-${randomUUID()}`;
    await expect(create(name, { SERVICE_ENV: "mainnet", KEY_ENCRYPTION_KEY: "" })).rejects.toThrow(/KEY_ENCRYPTION_KEY is required/);
    expect(await db.partner.count({ where: { name } })).toBe(0);
  });

  it("gives a mainnet partner a svc_live_ key", async () => {
    const { created } = await create("Live", { SERVICE_ENV: "mainnet", KEY_ENCRYPTION_KEY: randomBytes(32).toString("hex") });
    expect(created.api_key).toMatch(/^svc_live_/);
  });

  it("refuses an empty name", async () => {
    await expect(create("   ")).rejects.toThrow(/1 to 200 characters/);
  });

  it("disables and enables a partner and drops its cached key look-ups each time", async () => {
    const { created } = await create("Toggle");
    const cacheKey = apiKeyCacheKey(hashApiKey(created.api_key));

    await redis.set(cacheKey, "cached", "EX", 60);
    const disabling = testContext(db, redis);
    await setPartnerEnabled(disabling, created.partner_id, false);
    expect(disabling.out.results).toEqual([{ partner_id: created.partner_id, enabled: false }]);
    expect((await db.partner.findUniqueOrThrow({ where: { id: created.partner_id } })).enabled).toBe(false);
    expect(await redis.exists(cacheKey)).toBe(0);

    await redis.set(cacheKey, "cached", "EX", 60);
    await setPartnerEnabled(testContext(db, redis), created.partner_id, true);
    expect((await db.partner.findUniqueOrThrow({ where: { id: created.partner_id } })).enabled).toBe(true);
    expect(await redis.exists(cacheKey)).toBe(0);
  });

  it("wakes the work a disabled partner's wait held when it is enabled again, in the enabling transaction", async () => {
    const { created } = await create("Waiting");
    const partnerId = created.partner_id;
    await setPartnerEnabled(testContext(db, redis), partnerId, false);
    const address = () => Wallet.createRandom().address;
    const hotWallet = (chainId: number, status: "active" | "pending" | "failed") =>
      db.hotWallet.create({ data: { partnerId, chainId, address: address(), delegate: address(), status } });
    const sweep = (hotWalletId: string, status: "queued" | "swept") =>
      db.sweep.create({ data: { partnerId, chainId: 97, hotWalletId, account: address(), token: "USDT", tokenAddress: address(), status } });
    const revocation = (chainId: number, status: "queued" | "revoked") => db.revocation.create({ data: { partnerId, chainId, account: address(), authorization: {}, status } });

    const sweeping = await hotWallet(97, "active");
    await sweep(sweeping.id, "queued");
    await sweep(sweeping.id, "swept");
    const idle = await hotWallet(97, "active");
    await sweep(idle.id, "swept");
    const pending = await hotWallet(11155111, "pending");
    const failed = await hotWallet(97, "failed");
    const firstOn97 = await revocation(97, "queued");
    const secondOn97 = await revocation(97, "queued");
    await revocation(11155111, "revoked");
    const onSepolia = await revocation(11155111, "queued");

    const prefix = `cli-wake-${randomUUID()}`;
    const enabling = testContext(db, redis, { AMQP_PREFIX: prefix });
    await setPartnerEnabled(enabling, partnerId, true);

    const names = queueNames(prefix);
    const ids = [sweeping, idle, pending, failed].map((h) => h.id);
    const revocationIds = [firstOn97, secondOn97, onSepolia].map((r) => r.id);
    const outbox = await db.outboxMessage.findMany({
      where: { OR: [...ids.map((id) => ({ payload: { path: ["hotWalletId"], equals: id } })), ...revocationIds.map((id) => ({ payload: { path: ["revocationId"], equals: id } }))] },
      orderBy: { id: "asc" },
    });
    expect(outbox.map((m) => ({ exchange: m.exchange, routingKey: m.routingKey, type: m.type, payload: m.payload, publishedAt: m.publishedAt }))).toEqual([
      { exchange: names.workExchange, routingKey: names.batcher(97), type: "hot_wallet.wake", payload: { hotWalletId: sweeping.id, chainId: 97 }, publishedAt: null },
      { exchange: names.workExchange, routingKey: names.sender(11155111), type: "hot_wallet.deploy", payload: { hotWalletId: pending.id, chainId: 11155111 }, publishedAt: null },
      { exchange: names.workExchange, routingKey: names.batcher(97), type: "revocation.queued", payload: { revocationId: firstOn97.id, chainId: 97 }, publishedAt: null },
      { exchange: names.workExchange, routingKey: names.batcher(11155111), type: "revocation.queued", payload: { revocationId: onSepolia.id, chainId: 11155111 }, publishedAt: null },
    ]);
    expect(enabling.out.notes).toEqual([expect.stringMatching(/^4 wake message\(s\) for its waiting work written to the outbox/)]);

    // Disabling writes nothing, and neither does enabling a partner with nothing waiting.
    const quiet = await create("Nothing waiting");
    await setPartnerEnabled(testContext(db, redis, { AMQP_PREFIX: prefix }), quiet.created.partner_id, false);
    await setPartnerEnabled(testContext(db, redis, { AMQP_PREFIX: prefix }), partnerId, false);
    const enablingQuiet = testContext(db, redis, { AMQP_PREFIX: prefix });
    await setPartnerEnabled(enablingQuiet, quiet.created.partner_id, true);
    expect(enablingQuiet.out.notes).toEqual([]);
    expect(await db.outboxMessage.count({ where: { id: { gt: outbox.at(-1)!.id }, routingKey: { startsWith: prefix } } })).toBe(0);
  });

  it.each([
    ["a malformed id", "42", /not a partner id: "42"/],
    ["an unknown id", "00000000-0000-4000-8000-000000000000", /no partner with id 00000000-0000-4000-8000-000000000000/],
  ])("refuses %s", async (_what, id, message) => {
    await expect(setPartnerEnabled(testContext(db, redis), id, false)).rejects.toThrow(message);
  });
});
