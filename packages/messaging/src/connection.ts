import type { Logger } from "@sweep/common";
import amqp, { type AmqpConnectionManager } from "amqp-connection-manager";
import type { Channel } from "amqplib";

export type BrokerConnection = AmqpConnectionManager;

export interface ConnectOptions {
  logger: Logger;
  /** How long the first connection may take before connectBroker fails. */
  connectTimeoutMs?: number;
  heartbeatSeconds?: number;
  reconnectSeconds?: number;
}

/**
 * A connection that reconnects by itself; channels created from it re-run their setup (topology,
 * consumers) on every new connection. Resolves once connected the first time.
 */
export async function connectBroker(url: string, options: ConnectOptions): Promise<BrokerConnection> {
  const { logger } = options;
  const connection = amqp.connect([url], {
    heartbeatIntervalInSeconds: options.heartbeatSeconds ?? 5,
    reconnectTimeInSeconds: options.reconnectSeconds ?? 1,
  });
  connection.on("connect", () => logger.info("rabbitmq connected"));
  connection.on("disconnect", ({ err }) => logger.warn("rabbitmq disconnected", { error: err?.message }));
  connection.on("connectFailed", ({ err }) => logger.warn("rabbitmq connection failed", { error: err.message }));
  connection.on("blocked", ({ reason }) => logger.warn("rabbitmq blocked publishing", { reason }));
  try {
    await connection.connect({ timeout: options.connectTimeoutMs ?? 30_000 });
  } catch (err) {
    await connection.close();
    throw err;
  }
  return connection;
}

/**
 * amqp-connection-manager reopens a channel only when the connection comes back, so a channel the
 * broker closed on its own (a channel error) or a consumer it cancelled (queue deleted) would stay
 * dead. Reconnecting brings every channel back with its setup.
 */
export function reconnectOnChannelFailure(connection: BrokerConnection, channel: Channel, logger: Logger): void {
  channel.on("error", (err: Error) => {
    logger.error("rabbitmq channel failed; reconnecting", { error: err.message });
    reconnect(connection);
  });
}

export function reconnect(connection: BrokerConnection): void {
  try {
    connection.reconnect();
  } catch {
    // Already closed on purpose: nothing to bring back.
  }
}
