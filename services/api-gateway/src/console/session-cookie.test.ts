import type { Request } from "express";
import { hasSessionCookie, sessionToken } from "./session-cookie";

const token = "A".repeat(42) + "B";
const request = (cookie?: string) => ({ get: (name: string) => (name.toLowerCase() === "cookie" ? cookie : undefined) }) as unknown as Request;

describe("sessionToken", () => {
  it.each<[string | undefined, string | null, boolean]>([
    [undefined, null, false],
    ["", null, false],
    [`sweep_console=${token}`, token, true],
    [`theme=dark; sweep_console=${token}; other=1`, token, true],
    [`  sweep_console = ${token} `, token, true],
    [`sweep_console_old=${token}`, null, false],
    ["sweep_console=short", null, true],
    [`sweep_console=${token}; sweep_console=${token}`, null, true],
    [`sweep_console=${token.slice(1)}%`, null, true],
    ["sweep_console", null, false],
  ])("reads %j as %j (cookie present: %s)", (cookie, expected, present) => {
    expect(sessionToken(request(cookie))).toBe(expected);
    expect(hasSessionCookie(request(cookie))).toBe(present);
  });
});
