import { gasWalletsLow, outboxMessages, outboxOldestAgeSeconds, webhookDeliveriesOldestAgeSeconds, webhookDeliveriesOverdueSeconds, webhookDeliveriesPending, workItems, workOldestWaitSeconds } from "./metrics";
import { readOnScrape, sharedRead, type GaugeReading } from "./registry";

// Gauges of what the database holds, read at each scrape. The reads are the services' own (their
// queries); here they become series, with every chain's series present (0 when nothing waits), so
// a chain with nothing waiting reads 0 rather than no data.

export const WORK_KINDS = ["sweep", "revocation"] as const;
/**
 * Where a sweep or revocation not yet final waits, and so whose turn it is: `queued` the batcher's,
 * `claimed` (its batch open) the chain-sender's, `sent` (its batch's transaction stored) the chain's
 * and the chain-sender's watcher, `settling` (its batch confirmed or failed) the ledger's.
 */
export const WORK_STAGES = ["queued", "claimed", "sent", "settling"] as const;

export type WorkKind = (typeof WORK_KINDS)[number];
export type WorkStage = (typeof WORK_STAGES)[number];

/** The sweeps or revocations of one chain at one stage; a read returns none for an empty stage. */
export interface WorkBacklog {
  work: WorkKind;
  chainId: number;
  stage: WorkStage;
  items: number;
  oldestWaitSeconds: number;
}

type WorkLabels = "chain_id" | "work" | "stage";

/** One reading per served chain, kind of work and stage, 0 where the read found nothing; a chain not served is left out. */
export function workBacklogReadings(rows: readonly WorkBacklog[], chainIds: readonly number[]): { items: GaugeReading<WorkLabels>; oldestWaitSeconds: GaugeReading<WorkLabels> } {
  const found = new Map(rows.map((row) => [`${row.chainId}:${row.work}:${row.stage}`, row]));
  const all = chainIds.flatMap((chainId) =>
    WORK_KINDS.flatMap((work) => WORK_STAGES.map((stage) => ({ labels: { chain_id: String(chainId), work, stage }, row: found.get(`${chainId}:${work}:${stage}`) }))),
  );
  return {
    items: all.map(({ labels, row }) => ({ labels, value: row?.items ?? 0 })),
    oldestWaitSeconds: all.map(({ labels, row }) => ({ labels, value: row?.oldestWaitSeconds ?? 0 })),
  };
}

/** Shows the backlog of sweeps and revocations of the served chains (sweep_work_items, sweep_work_oldest_wait_seconds) at each scrape; returns the function that stops it. */
export function reportWorkBacklog(read: () => Promise<readonly WorkBacklog[]>, chainIds: readonly number[]): () => void {
  const readings = sharedRead(async () => workBacklogReadings(await read(), chainIds));
  const stops = [
    readOnScrape(workItems, async () => (await readings()).items),
    readOnScrape(workOldestWaitSeconds, async () => (await readings()).oldestWaitSeconds),
  ];
  return () => stops.forEach((stop) => stop());
}

/** Gas wallets below their partner's threshold on one chain, with or without work waiting on them; a read returns none for a count of 0. */
export interface LowGasWallets {
  chainId: number;
  hasWork: boolean;
  wallets: number;
}

/** One reading per served chain, with and without work, 0 where the read found none; a chain not served is left out. */
export function lowGasWalletReadings(rows: readonly LowGasWallets[], chainIds: readonly number[]): GaugeReading<"chain_id" | "has_work"> {
  return chainIds.flatMap((chainId) =>
    [true, false].map((hasWork) => ({
      labels: { chain_id: String(chainId), has_work: String(hasWork) },
      value: rows.filter((row) => row.chainId === chainId && row.hasWork === hasWork).reduce((sum, row) => sum + row.wallets, 0),
    })),
  );
}

/** Shows sweep_gas_wallets_low of the served chains at each scrape; returns the function that stops it. */
export function reportLowGasWallets(read: () => Promise<readonly LowGasWallets[]>, chainIds: readonly number[]): () => void {
  return readOnScrape(gasWalletsLow, async () => lowGasWalletReadings(await read(), chainIds));
}

/** The pending webhook deliveries: how many, the oldest's age, and how long the most overdue one has been due (0 when none). */
export interface WebhookBacklog {
  pending: number;
  oldestAgeSeconds: number;
  overdueSeconds: number;
}

/** Shows the pending webhook deliveries' three gauges at each scrape, from one read; returns the function that stops it. */
export function reportWebhookBacklog(read: () => Promise<WebhookBacklog>): () => void {
  const backlog = sharedRead(read);
  const stops = [
    readOnScrape(webhookDeliveriesPending, async () => [{ labels: {}, value: (await backlog()).pending }]),
    readOnScrape(webhookDeliveriesOldestAgeSeconds, async () => [{ labels: {}, value: (await backlog()).oldestAgeSeconds }]),
    readOnScrape(webhookDeliveriesOverdueSeconds, async () => [{ labels: {}, value: (await backlog()).overdueSeconds }]),
  ];
  return () => stops.forEach((stop) => stop());
}

/** The outbox rows not yet published: how many, and the oldest's age in seconds (0 when none). */
export interface OutboxBacklog {
  messages: number;
  oldestAgeSeconds: number;
}

/** Shows the outbox's two gauges at each scrape, from one read; returns the function that stops it. */
export function reportOutboxBacklog(read: () => Promise<OutboxBacklog>): () => void {
  const backlog = sharedRead(read);
  const stops = [
    readOnScrape(outboxMessages, async () => [{ labels: {}, value: (await backlog()).messages }]),
    readOnScrape(outboxOldestAgeSeconds, async () => [{ labels: {}, value: (await backlog()).oldestAgeSeconds }]),
  ];
  return () => stops.forEach((stop) => stop());
}
