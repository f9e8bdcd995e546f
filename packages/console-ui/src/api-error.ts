/** A failed call to the API or to the console's own endpoints, with the spec's error code. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** What a partner reads for each of the spec's error codes; the API's own message follows, since it names the field. */
const explanations: Record<string, string> = {
  invalid_json: "The request was not accepted",
  invalid_query: "A filter is not valid",
  unauthorized: "You are not signed in, or the link or password is not valid",
  partner_disabled: "This account is disabled, so the API refuses its requests",
  not_found: "Not found in this account",
  hot_wallet_not_active: "The hot wallet's delegate is not deployed yet",
  unknown_chain: "This chain is not supported in this environment",
  unknown_hot_wallet: "This hot wallet is not registered on that chain",
  unknown_token: "This token is not listed on that chain",
  invalid_address: "The address is not a non-zero 0x address",
  invalid_amount: "The amount is not a positive integer in the smallest unit",
  invalid_url: "The webhook URL is not a public https URL",
  rate_limited: "Too many requests",
  too_many_hot_wallets: "This account has as many hot wallets as it may have",
  chain_unavailable: "The chain's node did not answer",
  internal: "Something failed on the service side; try again later",
};

/** The sentence the page shows for a failure: the code's explanation, then the API's message. */
export function describeFailure(failure: unknown): string {
  if (!(failure instanceof ApiFailure)) return "The service could not be reached; check your connection and try again.";
  // An unknown code is treated like internal, as the spec says clients do.
  const explanation = explanations[failure.code] ?? explanations.internal;
  const wait = failure.code === "rate_limited" && failure.retryAfterSeconds !== undefined ? ` (try again in ${failure.retryAfterSeconds} s)` : "";
  return `${explanation}${wait}: ${failure.message} [${failure.code}]`;
}

/** The spec's error body, read defensively: a proxy's HTML page or an empty body still yields a code. */
export function failureFromBody(response: Response, body: unknown): ApiFailure {
  const retryAfter = Number(response.headers.get("Retry-After"));
  const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined;
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null | undefined)?.error;
  if (typeof error?.code === "string" && typeof error.message === "string") return new ApiFailure(response.status, error.code, error.message, retryAfterSeconds);
  return new ApiFailure(response.status, "internal", `HTTP ${response.status}`, retryAfterSeconds);
}

/** The failure a response whose body is not read yet stands for. */
export async function failureOf(response: Response): Promise<ApiFailure> {
  const body: unknown = await response.json().catch(() => undefined);
  return failureFromBody(response, body);
}
