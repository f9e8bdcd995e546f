import { localServiceEnv } from "./service-env";

describe("the services' environment under pnpm start", () => {
  it.each<[string, NodeJS.ProcessEnv, Record<string, string>]>([
    ["allows private hosts and plain http when neither variable is set", {}, { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_ALLOW_HTTP: "true" }],
    ["leaves false as set", { WEBHOOK_ALLOW_PRIVATE: "false", WEBHOOK_ALLOW_HTTP: "false" }, {}],
    ["leaves true as set", { WEBHOOK_ALLOW_PRIVATE: "true" }, { WEBHOOK_ALLOW_HTTP: "true" }],
    ["leaves an empty value as set, each on its own", { WEBHOOK_ALLOW_HTTP: "" }, { WEBHOOK_ALLOW_PRIVATE: "true" }],
  ])("%s", (_what, env, expected) => {
    expect(localServiceEnv(env)).toEqual(expected);
  });

  it("gives the services the block time of the chains it started, unless set", () => {
    expect(localServiceEnv({ WEBHOOK_ALLOW_PRIVATE: "false", WEBHOOK_ALLOW_HTTP: "false", BLOCK_TIME_MS_97: "3000" }, [11155111, 97], 2)).toEqual({ BLOCK_TIME_MS_11155111: "2000" });
  });
});
