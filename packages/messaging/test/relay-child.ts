/**
 * An outbox relay that dies mid-round, for the crash tests: it claims rows, then (before-publish)
 * hangs before publishing, or (after-publish) publishes and hangs before marking. It tells the
 * parent through IPC, and the parent SIGKILLs it.
 */
import { createDb } from "@sweep/db";
import { connectBroker } from "../src/connection";
import { OutboxRelay } from "../src/outbox-relay";
import { Publisher } from "../src/publisher";
import { defineTopology, type TopologyOptions } from "../src/topology";
import type { Envelope } from "../src/wire";
import { RABBITMQ_URL, logger } from "./support";

async function main(): Promise<void> {
  const [mode, options] = process.argv.slice(2) as ["before-publish" | "after-publish", string];
  const topology = defineTopology(JSON.parse(options) as TopologyOptions);
  const connection = await connectBroker(RABBITMQ_URL, { logger });
  const publisher = await Publisher.open(connection, topology, { logger });
  const crashing = {
    async publishEnvelope(exchange: string, routingKey: string, envelope: Envelope): Promise<void> {
      if (mode === "after-publish") await publisher.publishEnvelope(exchange, routingKey, envelope);
      process.send?.(mode);
      await new Promise<never>(() => undefined);
    },
  };
  const relay = new OutboxRelay({ db: createDb(process.env.DATABASE_URL!), publisher: crashing, exchange: topology.names.workExchange, logger });
  await relay.relayOnce();
}

void main();
