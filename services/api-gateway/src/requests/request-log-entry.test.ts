import { requestLogEntry, type AnsweredRequest } from "./request-log-entry";

const startedAt = new Date("2026-11-28T12:00:00.000Z");
const answered: AnsweredRequest = {
  partnerId: "5d1c54a4-0f5c-4bc3-9c4e-2d4b8f0e9a11",
  requestId: "req_abc",
  method: "GET",
  route: "/v1/sweeps/:id",
  path: "/v1/sweeps/0b7e6a55-4f2a-4c1e-8f3d-1a2b3c4d5e6f",
  status: 200,
  errorCode: undefined,
  startedAt,
  elapsedMs: 3.4,
};

describe("a request's entry in the request log", () => {
  it.each<[string, Partial<AnsweredRequest>, Partial<ReturnType<typeof requestLogEntry>> | null]>([
    ["a route's template, never the ids of its path", {}, { route: "/v1/sweeps/:id", errorCode: null, durationMs: 3 }],
    ["the error code of an error answer", { status: 404, errorCode: "not_found" }, { status: 404, errorCode: "not_found" }],
    ["the path when no route took the request", { route: undefined, path: "/v1/nothing-here", status: 404, errorCode: "not_found" }, { route: "/v1/nothing-here" }],
    ["a made-up path cut short", { route: undefined, path: `/v1/${"x".repeat(500)}` }, { route: `/v1/${"x".repeat(196)}` }],
    ["whole milliseconds, rounded", { elapsedMs: 12.5 }, { durationMs: 13 }],
    ["the time it arrived", {}, { createdAt: startedAt }],
    ["nothing for a request no partner made (no key, a refused key, /healthz)", { partnerId: undefined, status: 401, errorCode: "unauthorized" }, null],
  ])("%s", (_name, change, expected) => {
    const entry = requestLogEntry({ ...answered, ...change });
    if (expected === null) expect(entry).toBeNull();
    else expect(entry).toMatchObject(expected);
  });

  it("holds what a request was and how it was answered, nothing else", () => {
    expect(Object.keys(requestLogEntry(answered)!).sort()).toEqual(["createdAt", "durationMs", "errorCode", "method", "partnerId", "requestId", "route", "status"]);
  });
});
