import type { Response } from "supertest";

/** What the tests of POST /v1/sweeps and /v1/revocations check alike of the authorization a request carries. */

/** Fields that break an authorization's shape, each spread over a valid one. */
export const malformedAuthorizations: [string, object][] = [
  ["a malformed address", { address: "0x12" }],
  ["y_parity 2", { y_parity: 2 }],
  ["a malformed r", { r: "0xg" }],
  ["an s over 32 bytes", { s: `0x1${"0".repeat(64)}` }],
  ["a negative nonce", { nonce: -1 }],
];

/** The spec's prefixes of an authorization that is well formed but fails a check. */
const causePrefixes = /^(invalid authorization: (chain|delegates to|signature) |signed by |authorization is required )/;

/** A malformed authorization is 422 invalid_authorization naming the field, without a cause prefix: no check was reached. */
export function expectMalformedAuthorizationRefused(res: Response): void {
  expect(res.status).toBe(422);
  expect(res.body.error.code).toBe("invalid_authorization");
  expect(res.body.error.message).toMatch(/^authorization\./);
  expect(res.body.error.message).not.toMatch(causePrefixes);
}
