import { signatureHeader } from "../../../services/webhook-dispatcher/src/signature";
import { WebhookVerificationError } from "./errors";
import { verifyWebhook } from "./webhook";

// Signed by the dispatcher's own code, so a change of the scheme on either side fails here.
const secret = "whsec_test_secret";
const signedAt = new Date("2026-11-25T12:00:00Z");
const event = { id: "4f9c0a8e-2d6b-4b7e-9a55-0c1f3e2d4b6a", type: "webhook.test", created_at: signedAt.toISOString(), data: { message: "hello" } };
const body = JSON.stringify(event);
const header = signatureHeader(secret, body, signedAt);
const at = (seconds: number) => ({ now: new Date(signedAt.getTime() + seconds * 1000) });

describe("verifyWebhook", () => {
  it.each([
    ["a string body and node's header object", body, { "service-signature": header }],
    ["a byte body and Fetch API headers", new TextEncoder().encode(body), new Headers({ "Service-Signature": header })],
    ["express's header casing", body, { "Service-Signature": header }],
    ["a second v1 (a secret being rolled over)", body, { "service-signature": `${header},v1=${"0".repeat(64)}` }],
  ])("returns the event of a delivery signed with the secret: %s", (_case, raw, headers) => {
    expect(verifyWebhook(raw, headers, secret, at(10))).toEqual(event);
  });

  it.each([
    ["no header", body, {}, {}, "malformed_header"],
    ["a header without t", body, { "service-signature": header.replace(/^t=\d+,/, "") }, {}, "malformed_header"],
    ["a header without v1", body, { "service-signature": header.replace(/,v1=.*$/, "") }, {}, "malformed_header"],
    ["a short v1", body, { "service-signature": header.slice(0, -2) }, {}, "malformed_header"],
    ["a header of another shape", body, { "service-signature": "sha256=abc" }, {}, "malformed_header"],
    ["a body changed by one byte", body.replace("hello", "hellp"), { "service-signature": header }, {}, "bad_signature"],
    ["a body re-serialised (whitespace)", JSON.stringify(event, null, 1), { "service-signature": header }, {}, "bad_signature"],
    ["another secret", body, { "service-signature": header }, { secret: "whsec_other" }, "bad_signature"],
    ["a timestamp changed after signing", body, { "service-signature": header.replace(/^t=(\d+)/, (_m, t: string) => `t=${Number(t) + 1}`) }, {}, "bad_signature"],
    ["a signature 301 s old", body, { "service-signature": header }, { seconds: 301 }, "too_old"],
    ["a signature 301 s ahead", body, { "service-signature": header }, { seconds: -301 }, "too_old"],
    ["a signature 61 s old under a 60 s tolerance", body, { "service-signature": header }, { seconds: 61, toleranceSeconds: 60 }, "too_old"],
  ])("refuses %s", (_case, raw, headers, options: { secret?: string; seconds?: number; toleranceSeconds?: number }, code) => {
    const verify = () => verifyWebhook(raw, headers, options.secret ?? secret, { ...at(options.seconds ?? 0), toleranceSeconds: options.toleranceSeconds });
    expect(verify).toThrow(WebhookVerificationError);
    expect(verify).toThrow(expect.objectContaining({ code }));
  });

  it.each([
    ["not JSON", "not json"],
    ["JSON that is not an event", '{"hello":1}'],
  ])("refuses a correctly signed body that is %s", (_case, raw) => {
    const verify = () => verifyWebhook(raw, { "service-signature": signatureHeader(secret, raw, signedAt) }, secret, at(0));
    expect(verify).toThrow(expect.objectContaining({ code: "malformed_body" }));
  });

  it.each<[string, unknown]>([
    ["a parsed object (express.json() ran first)", event],
    ["null", null],
    ["a number", 42],
  ])("tells to pass the raw body bytes when given %s", (_case, raw) => {
    const verify = () => verifyWebhook(raw as string, { "service-signature": header }, secret, at(0));
    expect(verify).toThrow(WebhookVerificationError);
    expect(verify).toThrow(expect.objectContaining({ code: "malformed_body", message: expect.stringMatching(/^pass the raw body bytes as received/) }));
  });

  it("says to pass the raw body bytes when a re-serialised body does not match", () => {
    expect(() => verifyWebhook(JSON.stringify(event, null, 2), { "service-signature": header }, secret, at(0))).toThrow(/pass the raw body bytes as received/);
  });

  it("accepts a delivery signed during a rotation's overlap with either secret", () => {
    const both = signatureHeader(["whsec_new", secret], body, signedAt);
    expect(verifyWebhook(body, { "service-signature": both }, secret, at(0))).toEqual(event);
    expect(verifyWebhook(body, { "service-signature": both }, "whsec_new", at(0))).toEqual(event);
    expect(() => verifyWebhook(body, { "service-signature": both }, "whsec_other", at(0))).toThrow(expect.objectContaining({ code: "bad_signature" }));
  });

  it("accepts a Buffer, as node's http gives the body", () => {
    expect(verifyWebhook(Buffer.from(body), { "service-signature": header }, secret, at(0))).toEqual(event);
  });

  it("accepts a signature exactly at the tolerance", () => {
    expect(verifyWebhook(body, { "service-signature": header }, secret, at(300)).id).toBe(event.id);
  });
});
