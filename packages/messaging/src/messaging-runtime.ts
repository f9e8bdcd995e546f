import type { Closer, Logger } from "@sweep/common";
import type { Db, OutboxRound } from "@sweep/db";
import { connectBroker, type BrokerConnection } from "./connection";
import { OutboxRelay } from "./outbox-relay";
import { Publisher } from "./publisher";
import { defineTopology, type Topology } from "./topology";

export interface Messaging {
  connection: BrokerConnection;
  topology: Topology;
  publisher: Publisher;
  /** present when the process writes outbox rows and so relays them */
  relay?: OutboxRelay;
  isConnected(): boolean;
  /** in opening order; shutdown closes them in reverse (relay, publisher, connection) */
  closers: Closer[];
}

/**
 * A service's broker side: a reconnecting connection, the whole topology of the environment
 * (every process declares every chain's queues, so no message is ever unroutable because the
 * process that consumes it has not started yet), a confirming publisher, and, given a database,
 * the outbox relay.
 */
export async function openMessaging(options: {
  url: string;
  chainIds: readonly number[];
  logger: Logger;
  db?: Db;
  prefix?: string;
  /** OutboxRelayOptions.wakeDelayMs */
  relayWakeDelayMs?: number;
  /** OutboxRelayOptions.round */
  outboxRound?: OutboxRound;
}): Promise<Messaging> {
  const { logger } = options;
  const connection = await connectBroker(options.url, { logger });
  const topology = defineTopology({ chainIds: options.chainIds, prefix: options.prefix });
  const publisher = await Publisher.open(connection, topology, { logger });
  const relay = options.db ? new OutboxRelay({ db: options.db, publisher, exchange: topology.names.workExchange, logger, wakeDelayMs: options.relayWakeDelayMs, round: options.outboxRound }) : undefined;
  relay?.start();
  return {
    connection,
    topology,
    publisher,
    relay,
    isConnected: () => connection.isConnected(),
    closers: [
      { name: "rabbitmq", close: () => connection.close() },
      { name: "publisher", close: () => publisher.close() },
      ...(relay ? [{ name: "outbox relay", close: () => relay.stop() }] : []),
    ],
  };
}
