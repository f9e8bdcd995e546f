/** last_error of a failed attempt, as the spec lists them. */
export type AttemptError =
  | `status ${number}`
  | "timeout"
  | "connection refused"
  | "connection reset"
  | "connection closed"
  | "DNS lookup failed"
  | "TLS error"
  | "connection failed"
  | "private address refused"
  | "webhook removed"
  | "internal";

/** What an attempt came to: an answer in 2xx, or its status or why none came (delivery-attempt.ts records it, attempt-labels.ts counts it). */
export type AttemptResult = { outcome: "delivered"; statusCode: number } | { outcome: "failed"; statusCode: number | null; error: AttemptError };

/** OpenSSL's certificate codes (besides Node's ERR_TLS_* and ERR_SSL_*): the endpoint was reached, but not over a TLS it could prove. */
const tlsCodes = new Set([
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_REVOKED",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "CERT_SIGNATURE_FAILURE",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "EPROTO",
]);

/**
 * The last_error of an attempt that got no answer, from the error the request failed with (Node's
 * `https`, undici's fetch or a DNS lookup: their `code`, or the `code` of their `cause`).
 */
export function attemptErrorOf(err: unknown): AttemptError {
  const { code, name, message } = describe(err);
  if (name === "AbortError" || name === "TimeoutError" || code === "ABORT_ERR" || code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT" || code === "UND_ERR_HEADERS_TIMEOUT") return "timeout";
  // Node gives a socket closed before the answer code ECONNRESET, with this message.
  if (message === "socket hang up" || code === "UND_ERR_SOCKET" || code === "UND_ERR_CLOSED") return "connection closed";
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ECONNRESET") return "connection reset";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_FAIL" || code === "ENODATA") return "DNS lookup failed";
  if (code !== undefined && (tlsCodes.has(code) || code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_"))) return "TLS error";
  return "connection failed";
}

function describe(err: unknown): { code?: string; name?: string; message?: string } {
  if (typeof err !== "object" || err === null) return {};
  const { code, name, message, cause } = err as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
  if (typeof code !== "string" && cause !== undefined && name !== "AbortError") return describe(cause);
  return { code: typeof code === "string" ? code : undefined, name: typeof name === "string" ? name : undefined, message: typeof message === "string" ? message : undefined };
}
