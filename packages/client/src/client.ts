import createClient, { type Client } from "openapi-fetch";
import { SweepApiError } from "./errors";
import type { components, paths } from "./generated/openapi";
import { paginate, type Page } from "./pagination";
import { retryingFetch, type RetryOptions } from "./retry";
import { finalStatuses, pollUntil, type WaitOptions } from "./waiting";
import type { Event } from "./webhook";

type Schemas = components["schemas"];
export type Sweep = Schemas["Sweep"];
export type SweepRequest = Schemas["SweepRequest"];
export type Revocation = Schemas["Revocation"];
export type RevocationRequest = Schemas["RevocationRequest"];
export type HotWallet = Schemas["HotWallet"];
export type HotWalletRequest = Schemas["HotWalletRequest"];
export type DepositAddress = Schemas["DepositAddress"];
export type DepositAddressRegistration = Schemas["DepositAddressRegistration"];
export type Deposit = Schemas["Deposit"];
export type SweepPolicy = Schemas["SweepPolicy"];
export type SweepPolicyRequest = Schemas["SweepPolicyRequest"];
export type Balance = Schemas["Balance"];
export type Tariff = Schemas["Tariff"];
export type Settings = Schemas["Settings"];
/** The account's own ceiling on a chain's max fee per gas (Settings.fee_ceilings). */
export type FeeCeiling = Schemas["FeeCeiling"];
export type LedgerEntry = Schemas["LedgerEntry"];
export type Usage = Schemas["Usage"];
export type Webhook = Schemas["Webhook"];
export type WebhookRequest = Schemas["WebhookRequest"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
/** One request of the account as the request log keeps it (30 days): method, route template, status, error code, time. */
export type RequestLogEntry = Schemas["RequestLogEntry"];

type QueryOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;
/** A list's filters, without its paging (the iterator pages). */
type Filters<P extends keyof paths> = Omit<QueryOf<P>, "cursor">;

export interface SweepClientOptions {
  /** the API's address, such as https://api.example.com or http://127.0.0.1:8080 */
  baseUrl: string;
  /** svc_test_… or svc_live_… */
  apiKey: string;
  retry?: RetryOptions;
  /** a fetch of your own (a proxy agent, a test double); the global fetch by default */
  fetch?: typeof fetch;
}

/** What a typed call of openapi-fetch resolves to. */
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The sweep service's REST API, typed from its OpenAPI document. Every method resolves to the
 * answer's body or throws SweepApiError carrying the spec's `code`; network failures, 5xx, 429
 * and 409 hot_wallet_not_active are retried with backoff, each time the same request. `api` is
 * the generated client itself, for anything these methods do not cover.
 */
export class SweepClient {
  readonly api: Client<paths>;

  constructor(options: SweepClientOptions) {
    this.api = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      headers: { Authorization: `Bearer ${options.apiKey}` },
      fetch: retryingFetch(options.fetch ?? globalThis.fetch, options.retry),
    });
  }

  readonly sweeps = {
    /**
     * Queues a sweep, or returns the one with this external_id as it is now. Without an
     * external_id one is made up here, so a retried request can never make a second sweep.
     */
    create: (request: SweepRequest): Promise<Sweep> => body(this.api.POST("/v1/sweeps", { body: withExternalId(request) })),
    get: (id: string): Promise<Sweep> => body(this.api.GET("/v1/sweeps/{id}", { params: { path: { id } } })),
    /** Every sweep matching the filters, newest first. */
    list: (filters: Filters<"/v1/sweeps"> = {}): AsyncIterable<Sweep> => paginate((cursor) => this.sweeps.page({ ...filters, cursor })),
    page: (query: QueryOf<"/v1/sweeps"> = {}): Promise<Page<Sweep>> => body(this.api.GET("/v1/sweeps", { params: { query } })),
  };

  readonly revocations = {
    /** Queues a revocation, or returns the one with this external_id; one is made up when none is given. */
    create: (request: RevocationRequest): Promise<Revocation> => body(this.api.POST("/v1/revocations", { body: withExternalId(request) })),
    get: (id: string): Promise<Revocation> => body(this.api.GET("/v1/revocations/{id}", { params: { path: { id } } })),
    list: (filters: Filters<"/v1/revocations"> = {}): AsyncIterable<Revocation> => paginate((cursor) => this.revocations.page({ ...filters, cursor })),
    page: (query: QueryOf<"/v1/revocations"> = {}): Promise<Page<Revocation>> => body(this.api.GET("/v1/revocations", { params: { query } })),
  };

  readonly hotWallets = {
    /** Registers a hot wallet (its delegate is known at once) or returns it as it is. */
    register: (request: HotWalletRequest): Promise<HotWallet> => body(this.api.POST("/v1/hot-wallets", { body: request })),
    list: async (): Promise<HotWallet[]> => (await body(this.api.GET("/v1/hot-wallets"))).hot_wallets,
  };

  readonly depositAddresses = {
    /**
     * Registers up to 1,000 deposit addresses with their authorizations of the hot wallet's delegate
     * (all or none); registering one again holds its newer authorization. Resolves to them as stored.
     */
    register: async (request: DepositAddressRegistration): Promise<DepositAddress[]> => (await body(this.api.POST("/v1/deposit-addresses", { body: request }))).items,
    /** Every address of the inventory matching the filters, newest first. */
    list: (filters: Filters<"/v1/deposit-addresses"> = {}): AsyncIterable<DepositAddress> => paginate((cursor) => this.depositAddresses.page({ ...filters, cursor })),
    page: (query: QueryOf<"/v1/deposit-addresses"> = {}): Promise<Page<DepositAddress>> => body(this.api.GET("/v1/deposit-addresses", { params: { query } })),
  };

  readonly sweepPolicies = {
    /** Sets the policy of one token (or the native coin) on one chain, replacing the one set before; resolves to it as set. */
    set: (request: SweepPolicyRequest): Promise<SweepPolicy> => body(this.api.PUT("/v1/sweep-policies", { body: request })),
    list: async (): Promise<SweepPolicy[]> => (await body(this.api.GET("/v1/sweep-policies"))).items,
  };

  readonly events = {
    /** Every event of the last 30 days matching the filters, newest first, with its data as a delivery would carry it now; fetching sends nothing. */
    list: (filters: Filters<"/v1/events"> = {}): AsyncIterable<Event> => paginate((cursor) => this.events.page({ ...filters, cursor })),
    page: (query: QueryOf<"/v1/events"> = {}): Promise<Page<Event>> => body(this.api.GET("/v1/events", { params: { query } })),
  };

  readonly requests = {
    /** A request of the last 30 days by the X-Request-Id its answer carried (SweepApiError's `requestId`); not_found for an unknown id. */
    get: (requestId: string): Promise<RequestLogEntry> => body(this.api.GET("/v1/requests/{request_id}", { params: { path: { request_id: requestId } } })),
    /** Every request of the last 30 days matching the filters (status, error_code), newest first. */
    list: (filters: Filters<"/v1/requests"> = {}): AsyncIterable<RequestLogEntry> => paginate((cursor) => this.requests.page({ ...filters, cursor })),
    page: (query: QueryOf<"/v1/requests"> = {}): Promise<Page<RequestLogEntry>> => body(this.api.GET("/v1/requests", { params: { query } })),
  };

  readonly deposits = {
    /** Every deposit seen on the inventory's addresses matching the filters, newest first (pending ones too: filter `status: "confirmed"`). */
    list: (filters: Filters<"/v1/deposits"> = {}): AsyncIterable<Deposit> => paginate((cursor) => this.deposits.page({ ...filters, cursor })),
    page: (query: QueryOf<"/v1/deposits"> = {}): Promise<Page<Deposit>> => body(this.api.GET("/v1/deposits", { params: { query } })),
  };

  readonly webhook = {
    get: (): Promise<Webhook> => body(this.api.GET("/v1/webhook")),
    set: (request: WebhookRequest): Promise<Webhook> => body(this.api.PUT("/v1/webhook", { body: request })),
    delete: async (): Promise<void> => void (await body(this.api.DELETE("/v1/webhook"))),
    /**
     * A new signing secret; for 24 hours deliveries are signed with the old one too (two v1), so
     * verify with either (verifyWebhook takes the first that matches) while your receiver switches.
     */
    rotateSecret: (): Promise<Webhook> => body(this.api.POST("/v1/webhook/rotate-secret")),
    /** Queues a webhook.test event; resolves to its id. Never retried: each call is a new event. */
    test: async (): Promise<string> => (await body(this.api.POST("/v1/webhook/test"))).id,
    deliveries: (): AsyncIterable<WebhookDelivery> => paginate((cursor) => body(this.api.GET("/v1/webhook/deliveries", { params: { query: { cursor, limit: 200 } } }))),
    /** Delivers the event of this delivery (its id is the event's) again, signed anew; resolves to the delivery, pending again. */
    resend: (id: string): Promise<WebhookDelivery> => body(this.api.POST("/v1/webhook/deliveries/{id}/resend", { params: { path: { id } } })),
  };

  readonly settings = {
    get: (): Promise<Settings> => body(this.api.GET("/v1/settings")),
    update: (patch: Schemas["SettingsPatch"]): Promise<Settings> => body(this.api.PATCH("/v1/settings", { body: patch })),
  };

  balance(): Promise<Balance> {
    return body(this.api.GET("/v1/balance"));
  }

  tariff(): Promise<Tariff> {
    return body(this.api.GET("/v1/tariff"));
  }

  ledger(filters: Filters<"/v1/ledger"> = {}): AsyncIterable<LedgerEntry> {
    return paginate((cursor) => body(this.api.GET("/v1/ledger", { params: { query: { ...filters, cursor } } })));
  }

  /** A period's opening and closing balance and sums by kind per chain, for closing a month (created_after / created_before). */
  ledgerSummary(query: QueryOf<"/v1/ledger/summary"> = {}): Promise<Schemas["LedgerSummary"]> {
    return body(this.api.GET("/v1/ledger/summary", { params: { query } }));
  }

  usage(query: QueryOf<"/v1/usage"> = {}): Promise<Usage> {
    return body(this.api.GET("/v1/usage", { params: { query } }));
  }

  /** Reads the sweep until it is swept, failed or rejected. */
  waitForSweep(id: string, options?: WaitOptions): Promise<Sweep> {
    return pollUntil(() => this.sweeps.get(id), finalStatuses.sweep, `sweep ${id}`, options);
  }

  /** Reads the revocation until it is revoked, failed or rejected. */
  waitForRevocation(id: string, options?: WaitOptions): Promise<Revocation> {
    return pollUntil(() => this.revocations.get(id), finalStatuses.revocation, `revocation ${id}`, options);
  }

  /** Reads the hot wallet until its delegate is deployed (active) or its deployment failed. */
  waitForHotWallet(chainId: number, address: string, options?: WaitOptions): Promise<HotWallet> {
    const read = async () => {
      const wallet = (await this.hotWallets.list()).find((w) => w.chain_id === chainId && w.address.toLowerCase() === address.toLowerCase());
      if (!wallet) throw new SweepApiError(404, "not_found", `hot wallet ${address} is not registered on chain ${chainId}`, undefined);
      return wallet;
    };
    return pollUntil(read, finalStatuses.hotWallet, `hot wallet ${address} on chain ${chainId}`, options);
  }
}

async function body<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  throw SweepApiError.of(response, error);
}

function withExternalId<R extends { external_id?: string }>(request: R): R {
  return request.external_id === undefined ? { ...request, external_id: globalThis.crypto.randomUUID() } : request;
}
