import {
  lowGasWalletReadings,
  reportLowGasWallets,
  reportWebhookBacklog,
  reportWorkBacklog,
  workBacklogReadings,
  type LowGasWallets,
  type WebhookBacklog,
  type WorkBacklog,
} from "./database-gauges";
import { gasWalletsLow, webhookDeliveriesOldestAgeSeconds, webhookDeliveriesOverdueSeconds, webhookDeliveriesPending, workItems, workOldestWaitSeconds } from "./metrics";
import { scrapeMetrics } from "./registry";

const row = (chainId: number, work: WorkBacklog["work"], stage: WorkBacklog["stage"], items: number, oldestWaitSeconds: number): WorkBacklog => ({ chainId, work, stage, items, oldestWaitSeconds });

/** The non-zero readings as "chain/work/stage" → value. */
const nonZero = (readings: ReadonlyArray<{ labels: Partial<Record<string, string | number>>; value: number }>) =>
  Object.fromEntries(readings.filter((r) => r.value !== 0).map((r) => [Object.values(r.labels).join("/"), r.value]));

describe("the work backlog's readings", () => {
  it("has a reading for every served chain, kind of work and stage, 0 where nothing waits", () => {
    const { items, oldestWaitSeconds } = workBacklogReadings([], [97, 11155111]);
    expect(items).toHaveLength(2 * 2 * 4);
    expect(items.map((r) => r.labels)).toEqual(oldestWaitSeconds.map((r) => r.labels));
    expect(items.filter((r) => r.labels.chain_id === "97").map((r) => `${r.labels.work}/${r.labels.stage}`)).toEqual([
      "sweep/queued", "sweep/claimed", "sweep/sent", "sweep/settling",
      "revocation/queued", "revocation/claimed", "revocation/sent", "revocation/settling",
    ]);
    expect([...items, ...oldestWaitSeconds].every((r) => r.value === 0)).toBe(true);
  });

  it.each<[string, WorkBacklog[], number[], Record<string, number>, Record<string, number>]>([
    ["nothing read: every series 0", [], [97], {}, {}],
    ["a stage read shows its count and wait", [row(97, "sweep", "queued", 3, 42.5)], [97], { "97/sweep/queued": 3 }, { "97/sweep/queued": 42.5 }],
    [
      "each chain, kind and stage keeps its own values",
      [row(97, "sweep", "sent", 2, 30), row(97, "revocation", "sent", 1, 7), row(11155111, "sweep", "settling", 5, 600)],
      [97, 11155111],
      { "97/sweep/sent": 2, "97/revocation/sent": 1, "11155111/sweep/settling": 5 },
      { "97/sweep/sent": 30, "97/revocation/sent": 7, "11155111/sweep/settling": 600 },
    ],
    ["a chain the process does not serve is left out", [row(1, "sweep", "queued", 9, 9), row(97, "sweep", "claimed", 1, 1)], [97], { "97/sweep/claimed": 1 }, { "97/sweep/claimed": 1 }],
    ["items waiting but none due yet: a count and no wait", [row(97, "sweep", "queued", 4, 0)], [97], { "97/sweep/queued": 4 }, {}],
  ])("%s", (_name, rows, chainIds, items, waits) => {
    const readings = workBacklogReadings(rows, chainIds);
    expect(nonZero(readings.items)).toEqual(items);
    expect(nonZero(readings.oldestWaitSeconds)).toEqual(waits);
  });
});

describe("the low gas wallets' readings", () => {
  const low = (chainId: number, hasWork: boolean, wallets: number): LowGasWallets => ({ chainId, hasWork, wallets });

  it.each<[string, LowGasWallets[], number[], Array<[string, string, number]>]>([
    ["none low: both series of every chain at 0", [], [97, 56], [["97", "true", 0], ["97", "false", 0], ["56", "true", 0], ["56", "false", 0]]],
    ["with and without work apart", [low(97, true, 2), low(97, false, 5)], [97], [["97", "true", 2], ["97", "false", 5]]],
    ["a chain not served is left out", [low(1, true, 3)], [97], [["97", "true", 0], ["97", "false", 0]]],
  ])("%s", (_name, rows, chainIds, expected) => {
    expect(lowGasWalletReadings(rows, chainIds).map((r) => [r.labels.chain_id, r.labels.has_work, r.value])).toEqual(expected);
  });
});

describe("the database gauges at each scrape", () => {
  const values = async (gauge: { get(): Promise<{ values: Array<{ labels: object; value: number }> }> }) => (await gauge.get()).values.map((v) => [v.labels, v.value]);

  it("reads the work backlog once per scrape for both gauges, and drops both when the read fails", async () => {
    const read = jest.fn<Promise<WorkBacklog[]>, []>().mockResolvedValueOnce([row(97, "revocation", "claimed", 2, 12)]).mockRejectedValueOnce(new Error("database down"));
    const stop = reportWorkBacklog(read, [97]);
    try {
      await scrapeMetrics();
      expect(read).toHaveBeenCalledTimes(1);
      expect(await values(workItems)).toContainEqual([{ chain_id: "97", work: "revocation", stage: "claimed" }, 2]);
      expect(await values(workOldestWaitSeconds)).toContainEqual([{ chain_id: "97", work: "revocation", stage: "claimed" }, 12]);
      expect((await workItems.get()).values).toHaveLength(8);

      await scrapeMetrics();
      expect(read).toHaveBeenCalledTimes(2);
      expect([await values(workItems), await values(workOldestWaitSeconds)]).toEqual([[], []]);
    } finally {
      stop();
    }
  });

  it("shows the low gas wallets of each served chain", async () => {
    const stop = reportLowGasWallets(async () => [{ chainId: 97, hasWork: true, wallets: 1 }], [97]);
    try {
      await scrapeMetrics();
      expect(await values(gasWalletsLow)).toEqual([
        [{ chain_id: "97", has_work: "true" }, 1],
        [{ chain_id: "97", has_work: "false" }, 0],
      ]);
    } finally {
      stop();
    }
  });

  it("shows the pending deliveries from one read, and nothing once stopped", async () => {
    const read = jest.fn(async (): Promise<WebhookBacklog> => ({ pending: 3, oldestAgeSeconds: 95.5, overdueSeconds: 4 }));
    const stop = reportWebhookBacklog(read);
    const { body } = await scrapeMetrics();
    expect(read).toHaveBeenCalledTimes(1);
    expect(body).toContain("\nsweep_webhook_deliveries_pending 3\n");
    expect(body).toContain("\nsweep_webhook_deliveries_oldest_age_seconds 95.5\n");
    expect(body).toContain("\nsweep_webhook_deliveries_overdue_seconds 4\n");
    stop();
    for (const gauge of [webhookDeliveriesPending, webhookDeliveriesOldestAgeSeconds, webhookDeliveriesOverdueSeconds]) expect(await values(gauge)).toEqual([]);
  });
});
