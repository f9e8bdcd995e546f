import { ZodError } from "zod";
import { queueNames } from "./names";
import { outboxDraft } from "./publisher";
import { delayTierFor } from "./retry-delay";
import { defineTopology, deadLetterQueues } from "./topology";

const id = "0b6f0c1e-8f5e-4a38-9f55-2f1c1b2b8a11";

describe("message registry and names", () => {
  it("routes each message type to its queue through the work exchange", () => {
    const names = queueNames();
    const cases = [
      [outboxDraft("sweep.queued", { sweepId: id, chainId: 97, hotWalletId: id }), "batcher.97"],
      [outboxDraft("revocation.queued", { revocationId: id, chainId: 11155111 }), "batcher.11155111"],
      [outboxDraft("batch.ready", { batchId: id, chainId: 97 }), "sender.97"],
      [outboxDraft("hot_wallet.deploy", { hotWalletId: id, chainId: 97 }), "sender.97"],
      [outboxDraft("tx.outcome", { chainId: 97, transactionId: id }), "ledger"],
      [outboxDraft("event.recorded", { eventId: id }), "events"],
    ] as const;
    for (const [draft, queue] of cases) expect(draft).toMatchObject({ exchange: names.workExchange, routingKey: queue });
    expect(names.workExchange).toBe("sweep.work");
  });

  it("validates the payload of a draft and drops unknown fields", () => {
    expect(() => outboxDraft("sweep.queued", { sweepId: "x", chainId: 97, hotWalletId: id })).toThrow(ZodError);
    expect(() => outboxDraft("event.recorded", {} as never)).toThrow(ZodError);
    const draft = outboxDraft("event.recorded", { eventId: id, extra: 1 } as never);
    expect(draft.payload).toEqual({ eventId: id });
  });

  it("prefixes every name of a topology", () => {
    const topology = defineTopology({ chainIds: [97, 97, 56], prefix: "t1" });
    expect(topology.workQueues.map((q) => [q.name, q.singleActiveConsumer])).toEqual([
      ["t1.batcher.97", false],
      ["t1.sender.97", true],
      ["t1.batcher.56", false],
      ["t1.sender.56", true],
      ["t1.ledger", false],
      ["t1.events", false],
    ]);
    expect(deadLetterQueues(topology)).toContain("t1.sender.56.dlq");
    expect(deadLetterQueues(topology)).toContain("t1.unrouted");
    expect(topology.names.delay("t1.ledger", 5_000)).toBe("t1.ledger.delay.5000ms");
    expect(() => defineTopology({ chainIds: [0] })).toThrow("positive integers");
  });

  it("rounds a retry delay up to the next tier, capped at the longest", () => {
    const tiers = [1_000, 10_000, 60_000];
    expect(delayTierFor(1, tiers)).toBe(1_000);
    expect(delayTierFor(1_000, tiers)).toBe(1_000);
    expect(delayTierFor(1_001, tiers)).toBe(10_000);
    expect(delayTierFor(3_600_000, tiers)).toBe(60_000);
  });
});
