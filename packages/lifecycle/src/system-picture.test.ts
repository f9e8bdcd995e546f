/**
 * docs/architecture.md's system picture against the code: the RabbitMQ topology's names, each
 * message's route, the functions the flow of a sweep names, and who moves which state (beside
 * transitions.test.ts, which keeps the lifecycle picture equal to the tables).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { deadLetterQueues, defineTopology, messageRegistry, type MessageType, type QueueNames } from "@sweep/messaging";
import { moversDiagram } from "./movers-diagram";

const root = join(__dirname, "../../..");
const doc = readFileSync(join(root, "docs/architecture.md"), "utf8");

/** The source of the services and packages, tests left out. */
function sources(): string {
  return ["services", "packages"]
    .flatMap((top) => readdirSync(join(root, top)).map((name) => join(root, top, name, "src")))
    .flatMap((src) => {
      try {
        return readdirSync(src, { recursive: true, encoding: "utf8" }).map((file) => join(src, file));
      } catch {
        return [];
      }
    })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
}

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

  it("names in the topology and the flow of a sweep only functions the code defines", () => {
    const section = doc.slice(doc.indexOf("## Services, exchanges and queues"), doc.indexOf("## Lifecycles"));
    // camelCase words, placeholders ({chainId}) and Mermaid's keyword aside
    const named = [...new Set(section.replace(/\{[^}]*\}/g, "").match(/\b[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b/g))].filter((word) => word !== "sequenceDiagram");
    const code = sources();
    const defined = (name: string) => new RegExp(`(function|const) ${name}\\b|^\\s*(async )?${name}\\(`, "m").test(code);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((name) => !defined(name))).toEqual([]);
  });

  it("draws who moves which state from the lifecycle tables", () => {
    const start = doc.indexOf("<!-- movers:start -->");
    const end = doc.indexOf("<!-- movers:end -->");
    expect(start).toBeGreaterThan(-1);
    expect(doc.slice(start + "<!-- movers:start -->".length, end).trim()).toBe(moversDiagram());
  });
});
