import { deliveryLogFields } from "./delivery-log";

describe("deliveryLogFields", () => {
  const delivery = { eventId: "e", partnerId: "p" };
  it.each([
    ["sweep.swept", "s", { sweepId: "s" }],
    ["sweep.rejected", "s", { sweepId: "s" }],
    ["revocation.revoked", "r", { revocationId: "r" }],
    ["hot_wallet.active", "h", { hotWalletId: "h" }],
    ["balance.low", null, {}],
    ["webhook.test", null, {}],
    ["a future type with a subject", "x", { subjectId: "x" }],
  ])("%s", (eventType, subjectId, subject) => {
    expect(deliveryLogFields({ ...delivery, eventType, subjectId })).toEqual({ eventId: "e", eventType, partnerId: "p", ...subject });
  });
});
