import { usageWindow } from "./usage-window";

describe("usageWindow", () => {
  it.each([
    ["today alone", 1, "2026-11-21T12:00:00Z", "2026-11-21"],
    ["the default month", 30, "2026-11-21T12:00:00Z", "2026-10-23"],
    ["the first millisecond of a day", 2, "2026-11-21T00:00:00.000Z", "2026-11-20"],
    ["the last millisecond of a day", 2, "2026-11-21T23:59:59.999Z", "2026-11-20"],
    ["across a year", 3, "2027-01-01T08:00:00Z", "2026-12-30"],
    ["across a leap day", 2, "2028-03-01T08:00:00Z", "2028-02-29"],
    ["the longest window", 90, "2026-03-31T23:00:00Z", "2026-01-01"],
    ["a time given in another zone, counted in UTC", 1, "2026-11-21T23:30:00-05:00", "2026-11-22"],
  ])("%s", (_what, days, now, first) => {
    expect(usageWindow(days, new Date(now))).toEqual({ first, days });
  });
});
