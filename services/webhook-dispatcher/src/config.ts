import { loadConfig } from "@sweep/common";
import { loadWithChainIds } from "@sweep/chains";
import { workerEnv } from "@sweep/worker";
import { z } from "zod";

const ms = (fallback: number, min: number) => z.coerce.number().int().min(min).max(3_600_000).default(fallback);

export const webhookDispatcherEnv = workerEnv(8084).extend({
  /** how often due deliveries are looked for besides the nudge of each recorded event (retries come due by time alone) */
  DELIVERY_POLL_MS: ms(500, 10),
  /** the pause after the first failed attempt, doubled after each next one up to an hour (the spec's 10 s; shorter in tests) */
  WEBHOOK_RETRY_BASE_MS: ms(10_000, 1),
  /** how long an endpoint has to answer an attempt (the spec's 10 s; shorter in tests) */
  WEBHOOK_ATTEMPT_TIMEOUT_MS: ms(10_000, 100),
  /** attempts under way at once in this dispatcher */
  WEBHOOK_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(1_000).default(50),
  /** one partner's share of them: a hanging endpoint holds at most this many, the rest stay free for other partners */
  WEBHOOK_PARTNER_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(1_000).default(5),
  /** local development only: deliver to loopback and private addresses, and to http: URLs over plain http */
  WEBHOOK_ALLOW_PRIVATE: z.stringbool().default(false),
  /** local development only, apart from private hosts: deliveries to http: URLs, over plain http */
  WEBHOOK_ALLOW_HTTP: z.stringbool().default(false),
});
export type Config = z.infer<typeof webhookDispatcherEnv>;
/** The dispatcher's variables, and the environment's chains (ENV_CHAINS), whose queues it declares. */
export const loadWebhookDispatcherConfig = (env: NodeJS.ProcessEnv = process.env): Config & { chainIds: number[] } => loadWithChainIds(() => loadConfig(webhookDispatcherEnv, env), env);
