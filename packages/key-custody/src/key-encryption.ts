import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * The key-encryption key (KEK) under which gas wallet keys are stored: AES-256-GCM.
 * `id` is stored beside each ciphertext so keys can be rotated.
 */
export interface KeyEncryptionKey {
  id: string;
  key: Buffer;
}

/** Parses KEY_ENCRYPTION_KEY: 32 bytes as 64 hex characters or base64. */
export function parseKek(value: string): KeyEncryptionKey {
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
  if (key.length !== 32) throw new Error("KEY_ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64");
  return { id: createHash("sha256").update(key).digest("hex").slice(0, 16), key };
}

/**
 * A fixed development KEK, allowed only on the testnet environment when no KEY_ENCRYPTION_KEY is set.
 * Anyone with this source can decrypt what it protects, hence its id.
 */
export const developmentKek: KeyEncryptionKey = {
  id: "dev-insecure",
  key: createHash("sha256").update("sweep-service local development key-encryption key").digest(),
};

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function encryptSecret(kek: KeyEncryptionKey, plaintext: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", kek.key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

export function decryptSecret(kek: KeyEncryptionKey, sealed: string): Buffer {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || ciphertext === undefined) throw new Error("not a sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", kek.key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]);
}

/**
 * The KEKs a process may use: KEY_ENCRYPTION_KEY (the current one, used to seal new keys) and any
 * KEY_ENCRYPTION_KEYS_OLD (comma-separated) kept for decrypting. Without KEY_ENCRYPTION_KEY only the
 * testnet environment may run, on the development KEK, and `warn` is told so loudly.
 */
export function resolveKeks(
  env: { SERVICE_ENV: "testnet" | "mainnet"; KEY_ENCRYPTION_KEY?: string; KEY_ENCRYPTION_KEYS_OLD?: string },
  warn: (message: string) => void,
): { current: KeyEncryptionKey; all: KeyEncryptionKey[] } {
  const old = (env.KEY_ENCRYPTION_KEYS_OLD ?? "").split(",").filter(Boolean).map(parseKek);
  if (env.KEY_ENCRYPTION_KEY) {
    const current = parseKek(env.KEY_ENCRYPTION_KEY);
    // Testnet keys sealed before a KEK was configured stay readable; mainnet never trusts the public key.
    return { current, all: env.SERVICE_ENV === "testnet" ? [current, ...old, developmentKek] : [current, ...old] };
  }
  if (env.SERVICE_ENV !== "testnet") throw new Error("KEY_ENCRYPTION_KEY is required on the mainnet environment");
  warn(
    "WARNING: KEY_ENCRYPTION_KEY is not set; gas wallet keys are sealed under the public DEVELOPMENT key. " +
      "Never hold real funds with these keys. Set KEY_ENCRYPTION_KEY (32 bytes, hex or base64) outside local development.",
  );
  return { current: developmentKek, all: [developmentKek, ...old] };
}
