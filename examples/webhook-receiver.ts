/**
 * A webhook receiver as a partner runs one: express, the raw body verified with @sweep/client's
 * verifyWebhook before anything reads it, each event handled once by its id (deliveries are at
 * least once), and a 2xx at once (anything else, or no answer in 10 s, is retried).
 *
 * Alone: `WEBHOOK_SECRET=whsec_… PORT=4000 pnpm example:webhook-receiver` prints what arrives.
 */
import express from "express";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhook, WebhookVerificationError, type Event } from "@sweep/client";

export interface WebhookReceiver {
  /** where to point PUT /v1/webhook */
  url: string;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** the webhook's secret (a function: it is known only once PUT /v1/webhook answers) */
  secret: () => string;
  /** called once per event id; a throw answers 500, so the event is delivered again */
  onEvent: (event: Event) => void | Promise<void>;
  port?: number;
  path?: string;
}

export async function startWebhookReceiver(options: ReceiverOptions): Promise<WebhookReceiver> {
  const path = options.path ?? "/webhooks/sweep";
  // A real receiver keeps these ids in its database, written with what the event changed.
  const handled = new Set<string>();
  const app = express();

  // express.raw: the signature is over the bytes as sent, which a JSON parser would not keep.
  app.post(path, express.raw({ type: "application/json" }), async (req, res) => {
    let event: Event;
    try {
      event = verifyWebhook(req.body as Buffer, req.headers, options.secret());
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      console.warn(`[receiver] refused a delivery: ${err.code} (${err.message})`);
      res.status(400).end();
      return;
    }
    if (!handled.has(event.id)) {
      await options.onEvent(event);
      handled.add(event.id);
    }
    res.status(204).end();
  });

  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(options.port ?? 0, "127.0.0.1", () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () => new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

if (require.main === module) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) {
    console.error("set WEBHOOK_SECRET to the webhook's secret (GET /v1/webhook shows it)");
    process.exit(2);
  }
  startWebhookReceiver({
    secret: () => secret,
    port: Number(process.env.PORT ?? 4000),
    onEvent: (event) => console.log(`[receiver] ${event.type} ${event.id}: ${JSON.stringify(event.data)}`),
  }).then((receiver) => console.log(`[receiver] listening on ${receiver.url}`));
}
