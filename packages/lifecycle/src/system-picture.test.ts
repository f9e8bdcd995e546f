/**
 * docs/architecture.md's system picture against the code: the RabbitMQ topology's names, each
 * message's route, and who moves which state (beside transitions.test.ts, which keeps the lifecycle
 * picture equal to the tables).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deadLetterQueues, defineTopology, messageRegistry, type MessageType, type QueueNames } from "@sweep/messaging";
import { moversDiagram } from "./movers-diagram";

const doc = readFileSync(join(__dirname, "../../../docs/architecture.md"), "utf8");

/** A chain id no name holds otherwise, written `{chainId}` in the page (one queue per chain). */
const CHAIN = 987_654_321;
const topology = defineTopology({ chainIds: [CHAIN] });
const asWritten = (name: string) => name.replaceAll(String(CHAIN), "{chainId}");

describe("docs/architecture.md's system picture", () => {
  it("names every exchange and queue the topology declares", () => {
    const { names } = topology;
    const declared = [
      names.workExchange,
      names.deadLetterExchange,
      names.unroutedExchange,
      ...topology.workQueues.map((queue) => queue.name),
      ...deadLetterQueues(topology),
      // One delay queue per work queue and tier: the page writes their pattern.
      names.delay("{queue}", CHAIN).replace(String(CHAIN), "{ms}"),
    ].map(asWritten);
    expect(declared.filter((name) => !doc.includes(name))).toEqual([]);
  });

  it.each(Object.keys(messageRegistry) as MessageType[])("routes %s to the queue the code routes it to", (type) => {
    const route = messageRegistry[type].queue as (payload: { chainId: number }, names: QueueNames) => string;
    const rows = doc.split("\n").filter((line) => line.startsWith(`| \`${type}\` |`));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(`\`${asWritten(route({ chainId: CHAIN }, topology.names))}\``);
  });

  it("draws who moves which state from the lifecycle tables", () => {
    const start = doc.indexOf("<!-- movers:start -->");
    const end = doc.indexOf("<!-- movers:end -->");
    expect(start).toBeGreaterThan(-1);
    expect(doc.slice(start + "<!-- movers:start -->".length, end).trim()).toBe(moversDiagram());
  });
});
