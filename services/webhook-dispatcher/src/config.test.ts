import { ConfigError } from "@sweep/common";
import { loadWebhookDispatcherConfig } from "./config";

describe("webhook dispatcher configuration", () => {
  it("has the spec's schedule and limit, and refuses private addresses, by default", () => {
    expect(loadWebhookDispatcherConfig({})).toMatchObject({ DELIVERY_POLL_MS: 500, WEBHOOK_RETRY_BASE_MS: 10_000, WEBHOOK_ATTEMPT_TIMEOUT_MS: 10_000, WEBHOOK_ALLOW_PRIVATE: false, WEBHOOK_ALLOW_HTTP: false });
    expect(loadWebhookDispatcherConfig({})).toMatchObject({ WEBHOOK_MAX_IN_FLIGHT: 50, WEBHOOK_PARTNER_MAX_IN_FLIGHT: 5 });
  });

  it("declares the queues of the environment's chains: the spec's, or ENV_CHAINS", () => {
    expect(loadWebhookDispatcherConfig({}).chainIds).toEqual([11155111, 97]);
    expect(loadWebhookDispatcherConfig({ ENV_CHAINS: "97,777001" }).chainIds).toEqual([97, 777001]);
  });

  it("names a bad ENV_CHAINS beside its other bad variables, in one message", () => {
    expect(() => loadWebhookDispatcherConfig({ DELIVERY_POLL_MS: "0", ENV_CHAINS: "97,97" })).toThrow(expect.objectContaining({ problems: [expect.stringMatching(/^DELIVERY_POLL_MS /), "ENV_CHAINS names chain 97 twice"] }));
  });

  it("reads shorter timings and the private-address switch", () => {
    expect(loadWebhookDispatcherConfig({ DELIVERY_POLL_MS: "50", WEBHOOK_RETRY_BASE_MS: "200", WEBHOOK_ATTEMPT_TIMEOUT_MS: "500", WEBHOOK_ALLOW_PRIVATE: "true" })).toMatchObject({
      DELIVERY_POLL_MS: 50,
      WEBHOOK_RETRY_BASE_MS: 200,
      WEBHOOK_ATTEMPT_TIMEOUT_MS: 500,
      WEBHOOK_ALLOW_PRIVATE: true,
    });
  });

  it.each([
    [{ WEBHOOK_ALLOW_PRIVATE: "maybe" }, "WEBHOOK_ALLOW_PRIVATE"],
    [{ DELIVERY_POLL_MS: "0" }, "DELIVERY_POLL_MS"],
    [{ WEBHOOK_ATTEMPT_TIMEOUT_MS: "soon" }, "WEBHOOK_ATTEMPT_TIMEOUT_MS"],
    [{ WEBHOOK_PARTNER_MAX_IN_FLIGHT: "0" }, "WEBHOOK_PARTNER_MAX_IN_FLIGHT"],
    [{ WEBHOOK_MAX_IN_FLIGHT: "many" }, "WEBHOOK_MAX_IN_FLIGHT"],
    [{ ENV_CHAINS: "97,97" }, "ENV_CHAINS"],
  ])("refuses %j, naming %s", (env, name) => {
    expect(() => loadWebhookDispatcherConfig(env)).toThrow(ConfigError);
    expect(() => loadWebhookDispatcherConfig(env)).toThrow(name);
  });
});
