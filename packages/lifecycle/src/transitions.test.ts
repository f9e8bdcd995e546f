import { readFileSync } from "node:fs";
import { join } from "node:path";
import { states, unfinishedStates } from "./states";
import { correctedFrom, finalStates, fromStates, isTransition, lifecycleDiagram, lifecycles } from "./transitions";

describe("the lifecycle tables", () => {
  it.each([
    ["a sweep is claimed only while queued", () => fromStates("sweep", "processing"), ["queued"]],
    ["a sweep is settled only while processing", () => fromStates("sweep", "swept"), ["processing"]],
    ["a sweep is rejected while queued (batcher) or processing (simulation)", () => fromStates("sweep", "rejected"), ["queued", "processing"]],
    ["the chain-sender rejects a sweep only while processing", () => fromStates("sweep", "rejected", "chain-sender"), ["processing"]],
    ["a revocation is revoked only while processing", () => fromStates("revocation", "revoked"), ["processing"]],
    ["a hot wallet is settled only while pending", () => fromStates("hotWallet", "active"), ["pending"]],
    ["a hot wallet is registered again only after failing", () => fromStates("hotWallet", "pending"), ["failed"]],
    ["a batch is sent only while open", () => fromStates("batch", "sent"), ["open"]],
    ["a batch fails while open or sent", () => fromStates("batch", "failed"), ["open", "sent"]],
    ["a transaction is confirmed while signed or broadcast", () => fromStates("transaction", "confirmed"), ["signed", "broadcast"]],
    ["a batch is confirmed while open (nothing to send) or sent", () => fromStates("batch", "confirmed"), ["open", "sent"]],
    ["a transaction is dropped while signed or broadcast", () => fromStates("transaction", "dropped"), ["signed", "broadcast"]],
    ["only the chain-sender replaces a transaction", () => fromStates("transaction", "replaced", "chain-sender"), ["signed", "broadcast"]],
    ["a reorged transaction is restored or lost only while reorged", () => [...fromStates("reorg", "restored"), ...fromStates("reorg", "lost")], ["reorged", "reorged"]],
    ["a delivery is resent once delivered or failed, or retried while pending", () => fromStates("delivery", "pending"), ["pending", "delivered", "failed"]],
  ])("%s", (_what, starts, expected) => {
    expect(starts()).toEqual(expected);
  });

  it.each([
    ["sweep", "swept", "queued", false],
    ["sweep", "failed", "queued", false],
    ["sweep", "queued", "swept", false],
    ["sweep", null, "queued", true],
    ["sweep", null, "processing", false],
    ["revocation", "processing", "queued", true],
    ["hotWallet", "active", "pending", false],
    ["batch", "confirmed", "sent", false],
    ["transaction", "confirmed", "broadcast", false],
    ["transaction", "dropped", "signed", false],
    ["batch", null, "sent", true],
    ["batch", "failed", "confirmed", false],
    ["batch", "sent", "open", false],
    ["reorg", null, "reorged", true],
    ["reorg", "restored", "lost", false],
    ["reorg", "lost", "reorged", false],
    ["delivery", "delivered", "pending", true],
  ] as const)("%s from %s to %s allowed: %s", (lifecycle, from, to, allowed) => {
    expect(isTransition(lifecycle, from as never, to as never)).toBe(allowed);
  });

  it.each([
    ["a transaction given up is confirmed when it was mined after all", () => correctedFrom("transaction", "confirmed"), ["dropped"]],
    ["its failed batch is confirmed", () => correctedFrom("batch", "confirmed"), ["failed"]],
    ["its sweeps go back to processing from wherever the failure left them", () => correctedFrom("sweep", "processing"), ["queued", "rejected", "failed"]],
    ["its revocations too", () => correctedFrom("revocation", "processing"), ["queued", "rejected", "failed"]],
    ["a hot wallet its deployment's failure failed is activated", () => correctedFrom("hotWallet", "active"), ["failed"]],
  ])("corrections: %s", (_what, starts, expected) => {
    expect(starts()).toEqual(expected);
  });

  it("keeps corrections out of the ordinary guards: the batcher never claims a rejected sweep, a dropped transaction is not confirmed by settling", () => {
    expect(fromStates("sweep", "processing")).toEqual(["queued"]);
    expect(fromStates("transaction", "confirmed")).toEqual(["signed", "broadcast"]);
    expect(fromStates("batch", "confirmed")).not.toContain("failed");
  });

  it("has no change into creation-only states from elsewhere, and says so when asked", () => {
    expect(() => fromStates("transaction", "signed")).toThrow("no change of a transaction leads into signed from another state");
    expect(() => fromStates("sweep", "swept", "batcher")).toThrow("no change of a sweep leads into swept from another state by the batcher");
    expect(() => fromStates("reorg", "reorged")).toThrow("no change of a reorg leads into reorged from another state");
  });

  it.each([
    ["sweep", ["rejected", "swept", "failed"]],
    ["revocation", ["rejected", "revoked", "failed"]],
    ["hotWallet", ["active"]],
    ["batch", ["confirmed", "failed"]],
    ["transaction", ["confirmed", "replaced", "dropped"]],
    ["reorg", ["restored", "lost"]],
    ["delivery", []],
  ] as const)("the final states of a %s", (lifecycle, finals) => {
    expect(finalStates(lifecycle).sort()).toEqual([...finals].sort());
  });

  it("names every state of each table as reachable from its creation", () => {
    for (const [lifecycle, table] of Object.entries(lifecycles)) {
      const reached = new Set<string>();
      let frontier: string[] = table.filter((t) => t.from === null).map((t) => t.to);
      while (frontier.length > 0) {
        frontier.forEach((state) => reached.add(state));
        frontier = table.filter((t) => t.from !== null && reached.has(t.from) && !reached.has(t.to)).map((t) => t.to);
      }
      expect([lifecycle, [...reached].sort()]).toEqual([lifecycle, [...new Set(table.map((t) => t.to))].sort()]);
    }
  });

  it("names each kind's states, and the unfinished ones, as the tables have them", () => {
    expect(Object.keys(states.batch)).toEqual(["open", "sent", "confirmed", "failed"]);
    expect([states.transaction.broadcast, states.reorg.lost, states.hotWallet.active]).toEqual(["broadcast", "lost", "active"]);
    expect(unfinishedStates).toEqual({ work: ["queued", "processing"], batch: ["open", "sent"], transaction: ["signed", "broadcast"] });
  });

  it("is the picture docs/architecture.md shows", () => {
    const doc = readFileSync(join(__dirname, "../../../docs/architecture.md"), "utf8");
    const start = doc.indexOf("<!-- lifecycle:start -->");
    const end = doc.indexOf("<!-- lifecycle:end -->");
    expect(start).toBeGreaterThan(-1);
    expect(doc.slice(start + "<!-- lifecycle:start -->".length, end).trim()).toBe(lifecycleDiagram());
  });
});
