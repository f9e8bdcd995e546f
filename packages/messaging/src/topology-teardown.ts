import amqplib from "amqplib";
import { deadLetterQueues, type Topology } from "./topology";

/**
 * Every queue a topology declares: work queues, their delay tiers, dead-letter queues and the
 * unrouted queue.
 */
export function topologyQueues(topology: Topology): string[] {
  const { names } = topology;
  return [...topology.workQueues.flatMap((q) => [q.name, ...topology.retryDelaysMs.map((ms) => names.delay(q.name, ms))]), ...deadLetterQueues(topology)];
}

/**
 * Deletes every queue and exchange a topology declared. For prefixed topologies of tests and
 * retired suites: quorum queues each hold files and processes on the broker, so leaving them
 * behind exhausts it.
 */
export async function deleteTopology(url: string, topology: Topology): Promise<void> {
  if (topology.names.prefix === "") throw new Error("refusing to delete the unprefixed (production) topology");
  const { names } = topology;
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createChannel();
    for (const queue of topologyQueues(topology)) await channel.deleteQueue(queue);
    for (const exchange of [names.workExchange, names.deadLetterExchange, names.unroutedExchange]) await channel.deleteExchange(exchange);
  } finally {
    await connection.close();
  }
}
