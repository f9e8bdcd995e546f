export { SweepClient, type SweepClientOptions, type Sweep, type SweepRequest, type Revocation, type RevocationRequest, type HotWallet, type HotWalletRequest, type DepositAddress, type DepositAddressRegistration, type Deposit, type SweepPolicy, type SweepPolicyRequest, type Balance, type Tariff, type Settings, type LedgerEntry, type Usage, type Webhook, type WebhookRequest, type WebhookDelivery, type RequestLogEntry } from "./client";
export { authorizationDigest, authorizationOf, signAuthorization, type Authorization, type AuthorizationSigner, type AuthorizationTerms, type DigestSignature } from "./authorization";
export { verifyWebhook, type Event, type VerifyOptions, type WebhookHeaders } from "./webhook";
export { SweepApiError, SweepNetworkError, WebhookVerificationError, type ApiErrorCode, type WebhookVerificationCode } from "./errors";
export { paginate, type Page } from "./pagination";
export { finalStatuses, WaitTimeoutError, type WaitOptions } from "./waiting";
export { isRetryableAnswer, type RetryOptions } from "./retry";
export type { components, paths, webhooks } from "./generated/openapi";
