import { randomBytes } from "node:crypto";
import { decryptSecret, developmentKek, encryptSecret, parseKek } from "./key-encryption";

describe("key encryption (AES-256-GCM)", () => {
  const kek = parseKek(randomBytes(32).toString("hex"));

  it("round-trips a key and never repeats a ciphertext", () => {
    const secret = randomBytes(32);
    const a = encryptSecret(kek, secret);
    expect(decryptSecret(kek, a).equals(secret)).toBe(true);
    expect(encryptSecret(kek, secret)).not.toBe(a);
  });

  it("refuses another KEK and a tampered ciphertext", () => {
    const sealed = encryptSecret(kek, randomBytes(32));
    expect(() => decryptSecret(developmentKek, sealed)).toThrow();
    const parts = sealed.split(".");
    const body = Buffer.from(parts[3]!, "base64url");
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString("base64url");
    expect(() => decryptSecret(kek, parts.join("."))).toThrow();
  });

  it.each([["too short", "abcd"], ["31 bytes hex", "00".repeat(31)]])("rejects a KEK that is %s", (_why, value) => {
    expect(() => parseKek(value)).toThrow(/32 bytes/);
  });

  it("accepts base64 and gives the same id to the same key", () => {
    const raw = randomBytes(32);
    expect(parseKek(raw.toString("base64")).id).toBe(parseKek(raw.toString("hex")).id);
  });
});
