/** The spec's error codes with their HTTP statuses. */
const errorStatus = {
  invalid_json: 400,
  invalid_query: 400,
  unauthorized: 401,
  partner_disabled: 403,
  not_found: 404,
  hot_wallet_not_active: 409,
  unknown_chain: 422,
  unknown_hot_wallet: 422,
  unknown_token: 422,
  invalid_address: 422,
  invalid_amount: 422,
  invalid_external_id: 422,
  invalid_authorization: 422,
  invalid_url: 422,
  /** not in the spec's table: none of its codes means "a limit of the account is reached" (docs/decisions.md) */
  too_many_hot_wallets: 422,
  // Not in the spec's table (it says "Rate limits: not shown"): see docs/decisions.md.
  rate_limited: 429,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** An error the API answers with `{"error": {"code", "message"}}`. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = errorStatus[code];
  }

  toBody() {
    return { error: { code: this.code, message: this.message } };
  }
}
