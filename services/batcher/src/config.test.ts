import { ConfigError } from "@sweep/common";
import { loadBatcherConfig } from "./config";

describe("batcher configuration", () => {
  it("has defaults for the windows, the poll and the batch", () => {
    expect(loadBatcherConfig({})).toMatchObject({
      BATCH_WINDOW_MS: 150,
      BATCH_WINDOW_MAX_MS: 600,
      POLL_INTERVAL_MS: 1_000,
      BATCH_GAS_MARGIN_BPS: 8_000,
      BATCH_MAX_REVOCATIONS: 500,
    });
  });

  it("reads CHAINS and the windows", () => {
    expect(loadBatcherConfig({ CHAINS: "97", BATCH_WINDOW_MS: "50", BATCH_WINDOW_MAX_MS: "200", POLL_INTERVAL_MS: "250" })).toMatchObject({
      CHAINS: [97],
      BATCH_WINDOW_MS: 50,
      BATCH_WINDOW_MAX_MS: 200,
      POLL_INTERVAL_MS: 250,
    });
  });

  it.each([
    [{ POLL_INTERVAL_MS: "0" }, "POLL_INTERVAL_MS"],
    [{ BATCH_GAS_MARGIN_BPS: "20000" }, "BATCH_GAS_MARGIN_BPS"],
    [{ BATCH_WINDOW_MS: "soon" }, "BATCH_WINDOW_MS"],
  ])("refuses %j, naming %s", (env, name) => {
    expect(() => loadBatcherConfig(env)).toThrow(ConfigError);
    expect(() => loadBatcherConfig(env)).toThrow(name);
  });
});
