/** Why an attempt of on-chain work failed; retried until attempts run out. */
export const attemptFailureReasons = [
  "insufficient_gas_balance",
  "gas_limit_exceeded",
  "transaction_reverted",
  "nonce_conflict",
  "chain_unavailable",
  "internal",
] as const;
export type AttemptFailureReason = (typeof attemptFailureReasons)[number];
