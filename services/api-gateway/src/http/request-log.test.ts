import { ApiError } from "./api-error";
import { createLogger, type Logger } from "@sweep/common";
import express from "express";
import request from "supertest";
import { errorHandler } from "./errors";
import { newRequestId, requestIdFor, requestLog, requestLogging } from "./request-log";
import { notFound } from "./unrouted";

describe("requestIdFor", () => {
  const fresh = () => "req_new";
  it.each([
    ["no header", undefined, "req_new"],
    ["a partner's own id", "order-4711", "order-4711"],
    ["a UUID", "0b0f6a0e-9d43-4a53-9d0a-0f3d3cf5c2a1", "0b0f6a0e-9d43-4a53-9d0a-0f3d3cf5c2a1"],
    ["a proxy's id with dots and colons", "lb1:2024.06.01:abc_DEF", "lb1:2024.06.01:abc_DEF"],
    ["128 characters", "a".repeat(128), "a".repeat(128)],
    ["129 characters", "a".repeat(129), "req_new"],
    ["an empty header", "", "req_new"],
    ["a space", "a b", "req_new"],
    ["two headers joined by the server", "one, two", "req_new"],
    ["a line break (a forged log line)", 'x"}\n{"level":"error', "req_new"],
    ["a slash", "a/b", "req_new"],
    ["a non-ASCII letter", "caf\u00e9", "req_new"],
  ])("%s", (_what, incoming, expected) => {
    expect(requestIdFor(incoming, fresh)).toBe(expected);
  });

  it("makes new ids that differ and that it would keep when they come back", () => {
    const [a, b] = [newRequestId(), newRequestId()];
    expect(a).toMatch(/^req_[A-Za-z0-9_-]{16}$/);
    expect(a).not.toBe(b);
    expect(requestIdFor(a, fresh)).toBe(a);
  });

  it("makes no id twice across many refills of its random bytes", () => {
    const ids = Array.from({ length: 2_000 }, newRequestId);
    expect(new Set(ids).size).toBe(ids.length);
    ids.forEach((id) => expect(id).toMatch(/^req_[A-Za-z0-9_-]{16}$/));
  });
});

describe("requestLogging", () => {
  const logger = createLogger("request-log-test", "error");
  const info = jest.spyOn(logger, "info").mockImplementation(() => logger);
  const app = express();
  app.use(requestLogging(logger));
  app.get("/things/:id", (req, res) => {
    requestLog(res).note({ thingId: req.params.id });
    res.status(201).json({});
  });
  app.get("/refused", () => {
    throw new ApiError("invalid_query", "no");
  });
  app.get("/broken", () => {
    throw new Error("boom");
  });
  app.use(notFound(app));
  app.use(errorHandler);

  const accessLine = async (answered: request.Test) => {
    info.mockClear();
    const res = await answered;
    // The line is written on the response's close, which may come just after supertest has the body.
    for (let i = 0; i < 50 && info.mock.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(info.mock.calls).toHaveLength(1);
    const [message, fields] = info.mock.calls[0] as unknown as [string, Record<string, unknown>];
    expect(message).toBe("request");
    return { res, fields };
  };

  it("answers a new id and logs one line with the route template, the status, the duration and the noted ids", async () => {
    const { res, fields } = await accessLine(request(app).get("/things/42"));
    expect(res.headers["x-request-id"]).toMatch(/^req_/);
    expect(fields).toEqual({ requestId: res.headers["x-request-id"], method: "GET", route: "/things/:id", status: 201, durationMs: expect.any(Number), thingId: "42" });
  });

  it("keeps a well-formed incoming id", async () => {
    const { res, fields } = await accessLine(request(app).get("/things/1").set("X-Request-Id", "partner-abc.1"));
    expect(res.headers["x-request-id"]).toBe("partner-abc.1");
    expect(fields.requestId).toBe("partner-abc.1");
  });

  it("notes the error code of a refused request, and the path of an unmatched one", async () => {
    expect((await accessLine(request(app).get("/refused"))).fields).toMatchObject({ route: "/refused", status: 400, errorCode: "invalid_query" });
    expect((await accessLine(request(app).get("/nowhere?x=1"))).fields).toMatchObject({ route: null, path: "/nowhere", status: 404, errorCode: "not_found" });
  });

  it("logs an unexpected failure with the request's id and answers 500 internal", async () => {
    const errors: object[] = [];
    const child = jest.spyOn(logger, "child").mockImplementation((ids) => ({ error: (message: string, fields: object) => errors.push({ ...ids, message, ...fields }) }) as unknown as Logger);
    const { res, fields } = await accessLine(request(app).get("/broken"));
    child.mockRestore();
    expect(res.status).toBe(500);
    expect(fields).toMatchObject({ status: 500, errorCode: "internal" });
    expect(errors).toEqual([{ requestId: res.headers["x-request-id"], message: "request failed", method: "GET", path: "/broken", err: expect.stringContaining("boom") }]);
  });
});
