import { localServiceEnv } from "./service-env";

describe("the services' environment under pnpm start", () => {
  it.each<[string, NodeJS.ProcessEnv, Record<string, string>]>([
    ["allows private webhooks when the variable is not set", {}, { WEBHOOK_ALLOW_PRIVATE: "true" }],
    ["leaves false as set", { WEBHOOK_ALLOW_PRIVATE: "false" }, {}],
    ["leaves true as set", { WEBHOOK_ALLOW_PRIVATE: "true" }, {}],
    ["leaves an empty value as set", { WEBHOOK_ALLOW_PRIVATE: "" }, {}],
  ])("%s", (_what, env, expected) => {
    expect(localServiceEnv(env)).toEqual(expected);
  });
});
