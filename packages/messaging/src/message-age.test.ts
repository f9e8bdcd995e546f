import { messageAgeSeconds } from "./message-age";

describe("a message's age", () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0, 500);
  const seconds = now / 1000;

  it.each<[string, unknown, number | undefined]>([
    ["from a timestamp in the past", Math.floor(seconds) - 30, 30.5],
    ["within its second", Math.floor(seconds), 0.5],
    ["zero for a timestamp ahead of this clock", Math.floor(seconds) + 5, 0],
    ["none without a timestamp", undefined, undefined],
    ["none for a timestamp that is not a number", "1767268800", undefined],
    ["none for NaN", Number.NaN, undefined],
  ])("%s", (_name, timestamp, age) => {
    expect(messageAgeSeconds(timestamp, now)).toBe(age);
  });
});
