import { deadLetterQueues, type BrokerConnection, type Topology } from "@sweep/messaging";

/** Deletes every queue and exchange of a test's own topology (its unique AMQP prefix). */
export async function deleteTopology(connection: BrokerConnection, topology: Topology): Promise<void> {
  const { names } = topology;
  const channel = connection.createChannel({ confirm: true });
  await channel.waitForConnect();
  try {
    for (const q of topology.workQueues) {
      for (const queue of [q.name, ...topology.retryDelaysMs.map((ms) => names.delay(q.name, ms))]) await channel.deleteQueue(queue);
    }
    for (const queue of deadLetterQueues(topology)) await channel.deleteQueue(queue);
    for (const exchange of [names.workExchange, names.deadLetterExchange, names.unroutedExchange]) await channel.deleteExchange(exchange);
  } finally {
    await channel.close();
  }
}
