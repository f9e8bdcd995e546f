/**
 * What `pnpm start` sets for its services over its own environment. The stack is local development,
 * as docker-compose is: webhooks may go to a receiver on this machine (private hosts, plain http),
 * unless WEBHOOK_ALLOW_PRIVATE is set, whatever its value.
 */
export function localServiceEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return env.WEBHOOK_ALLOW_PRIVATE === undefined ? { WEBHOOK_ALLOW_PRIVATE: "true" } : {};
}
