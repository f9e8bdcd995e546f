import { hmac } from "@noble/hashes/hmac";
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex, concatBytes, utf8ToBytes } from "@noble/hashes/utils";
import { WebhookVerificationError } from "./errors";
import type { components } from "./generated/openapi";

/** A webhook body: switch on `type` to narrow `data`. New types may appear: ignore those you do not handle. */
export type Event = components["schemas"]["Event"];

/** Request headers as node's http, express or the Fetch API give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** how far the signature's time may be from now, either way; the spec's 5 minutes by default */
  toleranceSeconds?: number;
  /** now, for tests */
  now?: Date;
}

/**
 * Verifies a delivery's Service-Signature over the raw body (the bytes as received, before any
 * JSON parsing) and returns its event. Throws WebhookVerificationError: malformed_header,
 * bad_signature, too_old (or too far ahead), malformed_body.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string, options: VerifyOptions = {}): Event {
  if (typeof rawBody !== "string" && !ArrayBuffer.isView(rawBody)) {
    throw new WebhookVerificationError("malformed_body", `pass the raw body bytes as received (a string or a Uint8Array, before any JSON parsing), not ${rawBody === null ? "null" : typeof rawBody === "object" ? "a parsed object" : typeof rawBody}: with express, express.raw({ type: "application/json" })`);
  }
  const { t, signatures } = parseSignatureHeader(headerOf(headers, "service-signature"));
  const body = typeof rawBody === "string" ? utf8ToBytes(rawBody) : rawBody;
  const expected = hmac(sha256, utf8ToBytes(secret), concatBytes(utf8ToBytes(`${t}.`), body));
  if (!signatures.some((signature) => constantTimeEqual(signature, bytesToHex(expected)))) {
    throw new WebhookVerificationError(
      "bad_signature",
      "the signature does not match this body and secret: pass the raw body bytes as received (a body parsed and serialised again is not the body signed), with this webhook's secret",
    );
  }
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(nowSeconds - t) > tolerance) {
    throw new WebhookVerificationError("too_old", `signed at ${t}, ${nowSeconds - t} s from now: outside the ${tolerance} s tolerance`);
  }
  return parseEvent(new TextDecoder().decode(body));
}

/** `t=<unix seconds>,v1=<hex>`; several v1 are accepted, for a secret being rolled over. */
function parseSignatureHeader(header: string | undefined): { t: number; signatures: string[] } {
  if (header === undefined) throw new WebhookVerificationError("malformed_header", "no Service-Signature header");
  let t: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [key, value, ...rest] = part.trim().split("=");
    if (rest.length > 0 || value === undefined) throw new WebhookVerificationError("malformed_header", "Service-Signature is not t=<seconds>,v1=<hex>");
    if (key === "t" && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === "v1" && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (t === undefined || signatures.length === 0) throw new WebhookVerificationError("malformed_header", "Service-Signature is not t=<seconds>,v1=<hex>");
  return { t, signatures };
}

function parseEvent(text: string): Event {
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError("malformed_body", "the body is not JSON");
  }
  const { id, type, created_at, data } = (event ?? {}) as Record<string, unknown>;
  if (typeof id !== "string" || typeof type !== "string" || typeof created_at !== "string" || typeof data !== "object" || data === null) {
    throw new WebhookVerificationError("malformed_body", "the body is not an event (id, type, created_at, data)");
  }
  return event as Event;
}

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(",") : value;
  }
  return undefined;
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
