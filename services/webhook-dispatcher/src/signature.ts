import { createHmac } from "node:crypto";

/**
 * Service-Signature of one attempt: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` keyed
 * with the webhook secret, and a second `v1` keyed with the secret before a rotation while it lasts.
 */
export function signatureHeader(secrets: string | readonly string[], body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1s = (typeof secrets === "string" ? [secrets] : secrets).map((secret) => `v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`);
  return [`t=${t}`, ...v1s].join(",");
}
