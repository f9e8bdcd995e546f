import { SESSION_IDLE_MS, SESSION_MAX_MS, sessionAlive, sessionNeedsTouch } from "./session-expiry";

const signedIn = new Date("2026-11-26T08:00:00Z");
const at = (ms: number) => new Date(signedIn.getTime() + ms);
const session = (lastSeenMs: number) => ({ lastSeenAt: at(lastSeenMs), expiresAt: at(SESSION_MAX_MS) });

describe("sessionAlive", () => {
  it.each([
    ["just signed in", session(0), at(1_000), true],
    ["idle just under 30 minutes", session(0), at(SESSION_IDLE_MS - 1), true],
    ["idle 30 minutes", session(0), at(SESSION_IDLE_MS), false],
    ["used a minute ago, 11 hours in", session(11 * 3600_000), at(11 * 3600_000 + 60_000), true],
    ["in use at 12 hours", session(SESSION_MAX_MS - 1_000), at(SESSION_MAX_MS), false],
    ["past 12 hours", session(SESSION_MAX_MS - 1_000), at(SESSION_MAX_MS + 1), false],
  ])("%s: %s", (_what, times, now, alive) => {
    expect(sessionAlive(times, now)).toBe(alive);
  });
});

describe("sessionNeedsTouch", () => {
  it.each([
    [0, 59_999, false],
    [0, 60_000, true],
    [0, 10 * 60_000, true],
  ])("last seen at +%i ms, now +%i ms: %s", (seen, now, touch) => {
    expect(sessionNeedsTouch(session(seen), at(now))).toBe(touch);
  });
});
