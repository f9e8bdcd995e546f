/** The spec's error codes; a code this client does not know yet is still a string. */
export type ApiErrorCode =
  | "invalid_json"
  | "invalid_query"
  | "unauthorized"
  | "partner_disabled"
  | "not_found"
  | "hot_wallet_not_active"
  | "unknown_chain"
  | "unknown_hot_wallet"
  | "unknown_token"
  | "invalid_address"
  | "invalid_amount"
  | "invalid_external_id"
  | "invalid_authorization"
  | "invalid_url"
  | "too_many_hot_wallets"
  | "rate_limited"
  | "internal"
  | (string & {});

/** An answer of the API outside 2xx: branch on `code`, show `message` to people. */
export class SweepApiError extends Error {
  override readonly name = "SweepApiError";

  constructor(
    /** the HTTP status */
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    /** the X-Request-Id the API answered: quote it to support */
    readonly requestId: string | undefined,
  ) {
    super(message);
  }

  /** The error of an answer from its parsed body, `{"error": {"code", "message"}}` when it is the API's. */
  static of(response: Response, body: unknown): SweepApiError {
    const requestId = response.headers.get("x-request-id") ?? undefined;
    const error = errorOf(body);
    if (error) return new SweepApiError(response.status, error.code, error.message, requestId);
    // Not the API's shape: a proxy or a load balancer in between answered.
    return new SweepApiError(response.status, response.status >= 500 ? "internal" : `http_${response.status}`, `HTTP ${response.status} ${response.statusText}`.trim(), requestId);
  }
}

export function errorOf(body: unknown): { code: string; message: string } | undefined {
  if (typeof body !== "object" || body === null || !("error" in body)) return undefined;
  const error = (body as { error: unknown }).error;
  if (typeof error !== "object" || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === "string" && typeof message === "string" ? { code, message } : undefined;
}

/** The API could not be reached: every attempt failed on the network or ran out of time. */
export class SweepNetworkError extends Error {
  override readonly name = "SweepNetworkError";

  constructor(
    /** where the client sent the request: its origin, method and path */
    readonly target: { origin: string; method: string; pathname: string },
    /** attempts made, the first included */
    readonly attempts: number,
    cause: unknown,
  ) {
    const last = cause instanceof Error ? cause.message : String(cause);
    super(`could not reach the API at ${target.origin} (${target.method} ${target.pathname}): ${attempts} attempt${attempts === 1 ? "" : "s"} failed, the last with "${last}"; check baseUrl and the network`, { cause });
  }
}

/** A webhook delivery that did not pass verification: answer it with a 4xx and do not act on it. */
export type WebhookVerificationCode = "malformed_header" | "bad_signature" | "too_old" | "malformed_body";

export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";

  constructor(
    readonly code: WebhookVerificationCode,
    message: string,
  ) {
    super(message);
  }
}
