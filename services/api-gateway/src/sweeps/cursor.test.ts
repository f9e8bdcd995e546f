import { decodeCursor, encodeCursor } from "./cursor";

describe("page cursors", () => {
  it.each([1n, 42n, 9223372036854775807n])("carry seq %s there and back, opaque and URL-safe", (seq) => {
    const cursor = encodeCursor(seq);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain(seq.toString());
    expect(decodeCursor(cursor)).toBe(seq);
  });

  it.each([
    ["empty", ""],
    ["not base64url", "abc+/="],
    ["a bare number", "42"],
    ["another prefix", Buffer.from("s2.42").toString("base64url")],
    ["seq 0", Buffer.from("s1.0").toString("base64url")],
    ["a leading zero", Buffer.from("s1.042").toString("base64url")],
    ["past a Postgres bigint", Buffer.from("s1.9223372036854775808").toString("base64url")],
    ["too long", "A".repeat(65)],
  ])("refuses %s", (_what, cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
  });
});
