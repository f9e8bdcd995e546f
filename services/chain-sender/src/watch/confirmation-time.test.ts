import { sinceFirstBroadcast } from "./confirmation-time";

describe("time since a nonce's first broadcast", () => {
  const t = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000);
  const now = t(60).getTime();

  it.each<[string, Array<{ broadcastAt: Date | null; createdAt: Date }>, number]>([
    ["one transaction, from its broadcast", [{ createdAt: t(9), broadcastAt: t(10) }], 50],
    ["a replaced one, from the first version's broadcast", [{ createdAt: t(9), broadcastAt: t(10) }, { createdAt: t(40), broadcastAt: t(41) }], 50],
    ["from its storing when never marked broadcast", [{ createdAt: t(12), broadcastAt: null }], 48],
    ["the earliest of either", [{ createdAt: t(30), broadcastAt: null }, { createdAt: t(19), broadcastAt: t(20) }], 40],
    ["never negative", [{ createdAt: t(61), broadcastAt: t(62) }], 0],
  ])("%s", (_name, versions, seconds) => {
    expect(sinceFirstBroadcast(versions, now)).toBe(seconds);
  });
});
