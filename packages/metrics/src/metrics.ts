import { Counter, Gauge, Histogram } from "prom-client";
import { registry } from "./registry";

// Every metric of the suite, in one place (packages/metrics/README.md lists them). Labels take
// values from small fixed sets (chain ids, statuses, reasons, route templates, queue names),
// never ids or addresses: each label value is a series Prometheus keeps.

const registers = [registry];

// ── Messaging (every service) ─────────────────────────────────────────────────────────────────

export const queueLag = new Histogram({
  name: "sweep_queue_lag_seconds",
  help: "Age of a message when its consumer takes it: now minus its AMQP timestamp (whole seconds; the outbox row's creation, kept across retries and replays)",
  labelNames: ["queue"] as const,
  buckets: [1, 2, 5, 10, 30, 60, 300, 900, 3600],
  registers,
});

export const queueMessages = new Gauge({
  name: "sweep_queue_messages",
  help: "Messages ready in a queue this process consumes, or in that queue's dead-letter queue, read from the broker at each scrape",
  labelNames: ["queue"] as const,
  registers,
});

export const messagesTotal = new Counter({
  name: "sweep_messages_total",
  help: "Messages taken from a queue, by what became of them: handled, retried (delayed retry scheduled), requeued (handler failed), dead_lettered",
  labelNames: ["queue", "outcome"] as const,
  registers,
});

export const outboxMessages = new Gauge({ name: "sweep_outbox_messages", help: "Outbox rows not yet published, read from the database at each scrape", registers });
export const outboxOldestAgeSeconds = new Gauge({ name: "sweep_outbox_oldest_age_seconds", help: "Age of the oldest outbox row not yet published (0 when none), read at each scrape", registers });
// Without labels a gauge starts at 0; these show nothing until their process reads them (only a process with an outbox relay does).
outboxMessages.remove({});
outboxOldestAgeSeconds.remove({});

// ── Polling loops (every service) ─────────────────────────────────────────────────────────────

export const loopRoundsTotal = new Counter({
  name: "sweep_loop_rounds_total",
  help: "Rounds of a service's polling loop (PollingLoop in @sweep/common), by loop and outcome: ok, failed (the round threw; the loop logs it and goes on)",
  labelNames: ["loop", "outcome"] as const,
  registers,
});

// ── api-gateway ───────────────────────────────────────────────────────────────────────────────

export const httpRequestDuration = new Histogram({
  name: "sweep_http_request_duration_seconds",
  help: "Partner API requests from arrival to the response's last byte, by method, route template (unmatched: no route took the request) and status",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

export const rateLimitedTotal = new Counter({
  name: "sweep_rate_limited_total",
  help: "Partner API requests refused 429 rate_limited, by the limit they hit: address (per client address, before the key is checked), key (per API key), webhook_test (POST /v1/webhook/test per partner), console_sign_in (console sign-ins per client address)",
  labelNames: ["limit"] as const,
  registers,
});

export const rateLimiterErrors = new Counter({
  name: "sweep_rate_limiter_errors_total",
  help: "Requests let through unlimited because the rate limiter could not reach Redis (it fails open), by limit",
  labelNames: ["limit"] as const,
  registers,
});

export const requestLogDropped = new Counter({
  name: "sweep_request_log_dropped_total",
  help: "Partner requests left out of the request log (GET /v1/requests), by reason: buffer_full (writes fell behind, Postgres down or slow), write_failed (a batch's INSERT failed)",
  labelNames: ["reason"] as const,
  registers,
});

// ── batcher ───────────────────────────────────────────────────────────────────────────────────

export const batchSize = new Histogram({
  name: "sweep_batch_size",
  help: "Items of each batch the batcher claims (purpose sweep or revocation)",
  labelNames: ["chain_id", "purpose"] as const,
  buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500],
  registers,
});

// ── Final states (batcher, chain-sender, ledger) ─────────────────────────────────────────────

export const sweepsFinal = new Counter({
  name: "sweep_sweeps_final_total",
  help: "Sweeps that reached a final status (swept, failed, rejected), by reason (none when swept); counted once, when the guarded update changed the sweep",
  labelNames: ["chain_id", "status", "reason"] as const,
  registers,
});

export const revocationsFinal = new Counter({
  name: "sweep_revocations_final_total",
  help: "Revocations that reached a final status (revoked, failed, rejected), by reason (none when revoked); counted once, when the guarded update changed the revocation",
  labelNames: ["chain_id", "status", "reason"] as const,
  registers,
});

// A counter never goes down: an item a correction takes out of a final state (a given-up transaction found mined, its batch
// restored) is counted here with the labels it was counted under, so final_total − final_corrected_total is what stands.
export const sweepsFinalCorrected = new Counter({
  name: "sweep_sweeps_final_corrected_total",
  help: "Sweeps taken out of a final status (rejected, failed) by a correction, by the status and reason they had been counted under in sweep_sweeps_final_total; subtract to get the final states that stand",
  labelNames: ["chain_id", "status", "reason"] as const,
  registers,
});

export const revocationsFinalCorrected = new Counter({
  name: "sweep_revocations_final_corrected_total",
  help: "Revocations taken out of a final status (rejected, failed) by a correction, by the status and reason they had been counted under in sweep_revocations_final_total; subtract to get the final states that stand",
  labelNames: ["chain_id", "status", "reason"] as const,
  registers,
});

// ── Work not yet final (ledger, read from the database at each scrape) ─────────────────────────

export const workItems = new Gauge({
  name: "sweep_work_items",
  help: "Sweeps and revocations not yet final, by stage: queued (waiting for a batch; a disabled partner's are left out), claimed (in a batch not yet sent), sent (its transaction not yet confirmed), settling (its batch confirmed or failed, not yet settled by the ledger); read at each scrape",
  labelNames: ["chain_id", "work", "stage"] as const,
  registers,
});

export const workOldestWaitSeconds = new Gauge({
  name: "sweep_work_oldest_wait_seconds",
  help: "How long the sweep or revocation that has waited longest at its stage has waited there: a queued one since it became due (created, or its retry pause over), the others since their batch was claimed; 0 when none; read at each scrape",
  labelNames: ["chain_id", "work", "stage"] as const,
  registers,
});

// ── ledger ────────────────────────────────────────────────────────────────────────────────────

export const gasWalletsLow = new Gauge({
  name: "sweep_gas_wallets_low",
  help: "Gas wallets of enabled partners whose last reconciled balance on the chain is below the partner's low-balance threshold there, by whether work waits on them (has_work: sweeps or revocations not final, a delegate being deployed); read at each scrape",
  labelNames: ["chain_id", "has_work"] as const,
  registers,
});

export const gasPerSweep = new Histogram({
  name: "sweep_gas_per_sweep",
  help: "Gas a swept sweep bears (its share of its transaction's gasUsed), by the spec's kind: repeat, first, first_new",
  labelNames: ["chain_id", "kind"] as const,
  buckets: [15_000, 20_000, 25_000, 30_000, 35_000, 40_000, 50_000, 60_000, 80_000, 100_000, 150_000, 250_000, 500_000],
  registers,
});

// ── chain nodes (every process that talks to a chain) ──────────────────────────────────────────

export const rpcCalls = new Counter({
  name: "sweep_rpc_calls_total",
  help: "JSON-RPC calls sent to a chain's endpoint (each call of a batch counts), by method: what a provider plan counts",
  labelNames: ["chain_id", "endpoint", "method"] as const,
  registers,
});

export const rpcHttpRequests = new Counter({
  name: "sweep_rpc_http_requests_total",
  help: "HTTP requests sent to a chain's endpoint (a JSON-RPC batch is one), by outcome: ok, rpc_error (the node answered an error), timeout, http_429, quota (the provider refused for its plan: HTTP 402/403 or a capacity error in the body), http_5xx, http_status (another refusal), connection, malformed",
  labelNames: ["chain_id", "endpoint", "outcome"] as const,
  registers,
});

export const rpcRequestSeconds = new Histogram({
  name: "sweep_rpc_request_seconds",
  help: "Time from sending an HTTP request to a chain's endpoint to its answer or failure",
  labelNames: ["chain_id", "endpoint"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

export const rpcEndpointHealth = new Gauge({
  name: "sweep_rpc_endpoint_health",
  help: "A chain endpoint's health score: 0 while out of rotation after failures, otherwise the share of its recent requests that succeeded",
  labelNames: ["chain_id", "endpoint"] as const,
  registers,
});

// ── chain-sender ──────────────────────────────────────────────────────────────────────────────

export const confirmationSeconds = new Histogram({
  name: "sweep_confirmation_seconds",
  help: "From the first broadcast of a nonce's transaction to the watcher settling it at the confirmation depth, by the batch's purpose",
  labelNames: ["chain_id", "purpose"] as const,
  buckets: [1, 2, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 1800],
  registers,
});

export const replacementsTotal = new Counter({
  name: "sweep_replacements_total",
  help: "Stuck transactions replaced at the same nonce with higher fees",
  labelNames: ["chain_id"] as const,
  registers,
});

export const replacementsAtCeilingTotal = new Counter({
  name: "sweep_replacements_at_fee_ceiling_total",
  help: "Stuck transactions kept and sent again instead of replaced: the raise a replacement needs would cross the fee ceiling (the chain's or the partner's)",
  labelNames: ["chain_id"] as const,
  registers,
});

export const nonceGapsTotal = new Counter({
  name: "sweep_nonce_gaps_total",
  help: "Nonce gaps filled with a self-transfer",
  labelNames: ["chain_id"] as const,
  registers,
});

export const noncesAbandonedTotal = new Counter({
  name: "sweep_nonces_abandoned_total",
  help: "Nonces whose transactions were given up (dropped, their batch failed): nonce_conflict (another transaction took the nonce, or the node kept refusing) or insufficient_gas_balance",
  labelNames: ["chain_id", "reason"] as const,
  registers,
});

export const noncesRestoredTotal = new Counter({
  name: "sweep_nonces_restored_total",
  help: "Transactions whose nonce was given up and that were found mined after all: restored, their gas booked and their sweeps settled from the receipt",
  labelNames: ["chain_id"] as const,
  registers,
});

export const settledReorgsTotal = new Counter({
  name: "sweep_settled_reorgs_total",
  help: "Settled transactions whose block left the canonical chain (a reorg deeper than the confirmations): detected, then restored (mined again, final) or lost (another transaction took the nonce)",
  labelNames: ["chain_id", "outcome"] as const,
  registers,
});

export const firewallBlocksBehind = new Gauge({
  name: "sweep_firewall_blocks_behind",
  help: "Blocks of the chain the delegation firewall has not read yet, after its latest round (0: at the head)",
  labelNames: ["chain_id"] as const,
  registers,
});

export const depositAddressesCompromisedTotal = new Counter({
  name: "sweep_deposit_addresses_compromised_total",
  help: "Deposit addresses the delegation firewall marked compromised, by what it saw: delegation_changed (delegated elsewhere than the partner's delegates) or activity (the address sent a transaction)",
  labelNames: ["chain_id", "kind"] as const,
  registers,
});

export const depositsConfirmedTotal = new Counter({
  name: "sweep_deposits_confirmed_total",
  help: "Deposits to the inventory's addresses that reached the chain's confirmations (deposit.detected sent), by token ticker",
  labelNames: ["chain_id", "token"] as const,
  registers,
});

export const policySweepsCreatedTotal = new Counter({
  name: "sweep_policy_sweeps_created_total",
  help: "Sweeps the partners' sweep policies made from detected deposits, by token ticker",
  labelNames: ["chain_id", "token"] as const,
  registers,
});

export const depositsRemovedTotal = new Counter({
  name: "sweep_deposits_removed_total",
  help: "Pending deposits whose block a reorg removed before their confirmations (never announced)",
  labelNames: ["chain_id"] as const,
  registers,
});

/** 1 while this chain-sender holds the chain's leader lease (it sends and watches there), 0 on standby. */
export const chainSenderLeader = new Gauge({
  name: "sweep_chain_sender_leader",
  help: "1 while this chain-sender process leads the chain (holds its lease), 0 while on standby",
  labelNames: ["chain_id"] as const,
  registers,
});

// ── webhook-dispatcher ────────────────────────────────────────────────────────────────────────

export const webhookAttempts = new Counter({
  name: "sweep_webhook_attempts_total",
  help: "Recorded delivery attempts: delivered, failed (retried later) or gave_up (the last attempt failed), by reason (http_2xx, http_4xx, http_5xx, timeout, connection_refused, ...)",
  labelNames: ["outcome", "reason"] as const,
  registers,
});

export const webhookDeliveriesPending = new Gauge({ name: "sweep_webhook_deliveries_pending", help: "Webhook deliveries pending (neither delivered nor given up), read at each scrape", registers });
export const webhookDeliveriesOldestAgeSeconds = new Gauge({
  name: "sweep_webhook_deliveries_oldest_age_seconds",
  help: "Age of the oldest pending webhook delivery, from its event (0 when none), read at each scrape",
  registers,
});
export const webhookDeliveriesOverdueSeconds = new Gauge({
  name: "sweep_webhook_deliveries_overdue_seconds",
  help: "How long the pending delivery furthest behind its schedule has been due without a dispatcher taking it (0 when none is due), read at each scrape",
  registers,
});
// As for the outbox gauges: nothing until the webhook-dispatcher reads them.
webhookDeliveriesPending.remove({});
webhookDeliveriesOldestAgeSeconds.remove({});
webhookDeliveriesOverdueSeconds.remove({});
