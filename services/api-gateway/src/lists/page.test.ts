import { RevocationListQuery, SweepListQuery } from "@sweep/api-contract";
import { ApiError } from "../http/api-error";
import { revocationCursors, sweepCursors } from "./cursor";
import { DEFAULT_PAGE_SIZE, pageOf, parsePageRequest } from "./page";

const chains = new Map([
  [11155111, {}],
  [97, {}],
]);

function refusal(run: () => unknown) {
  try {
    run();
  } catch (err) {
    if (err instanceof ApiError) return { code: err.code, message: err.message };
    throw err;
  }
  return null;
}

describe("parsePageRequest", () => {
  it("starts at the top with the default page size when no cursor or limit is given", () => {
    expect(parsePageRequest(RevocationListQuery, { status: "revoked" }, revocationCursors, chains)).toEqual({ query: { status: "revoked" }, below: null, limit: DEFAULT_PAGE_SIZE });
  });

  it("reads below the seq of its own list's cursor, with the limit asked for", () => {
    const cursor = revocationCursors.encode(42n);
    expect(parsePageRequest(RevocationListQuery, { cursor, limit: "7", chain_id: "97" }, revocationCursors, chains)).toEqual({
      query: { cursor, limit: 7, chain_id: 97 },
      below: 42n,
      limit: 7,
    });
  });

  it.each<[string, () => unknown, RegExp]>([
    ["a forged cursor", () => parsePageRequest(SweepListQuery, { cursor: "bm90LWEtY3Vyc29y" }, sweepCursors, chains), /^cursor is not a next_cursor of this list$/],
    ["another list's cursor", () => parsePageRequest(RevocationListQuery, { cursor: sweepCursors.encode(5n) }, revocationCursors, chains), /^cursor /],
    ["a chain outside the environment", () => parsePageRequest(RevocationListQuery, { chain_id: "1" }, revocationCursors, chains), /^chain_id 1 is not a chain of this API; use one of 11155111, 97$/],
    ["a parameter of another list", () => parsePageRequest(RevocationListQuery, { hot_wallet: "0x52908400098527886E0F7030069857D2E4169EE7" }, revocationCursors, chains), /^unknown query parameter hot_wallet$/],
    ["a sweep status on the revocations list", () => parsePageRequest(RevocationListQuery, { status: "swept" }, revocationCursors, chains), /^status must be one of queued, processing, revoked, failed, rejected$/],
    ["limit 201", () => parsePageRequest(RevocationListQuery, { limit: "201" }, revocationCursors, chains), /^limit /],
  ])("refuses %s with 400 invalid_query naming the parameter", (_what, run, message) => {
    expect(refusal(run)).toEqual({ code: "invalid_query", message: expect.stringMatching(message) });
  });
});

describe("pageOf", () => {
  const rows = (...seqs: number[]) => seqs.map((seq) => ({ seq: BigInt(seq) }));

  it("cuts the extra row off and points the next cursor at the last row kept", () => {
    const page = pageOf(rows(9, 8, 7), 2, revocationCursors);
    expect(page.items).toEqual(rows(9, 8));
    expect(revocationCursors.decode(page.nextCursor!)).toBe(8n);
  });

  it.each([
    ["a full last page", rows(9, 8), 2],
    ["a short last page", rows(9), 2],
    ["an empty list", rows(), 2],
  ])("ends with next_cursor null on %s", (_what, read, limit) => {
    expect(pageOf(read, limit, revocationCursors)).toEqual({ items: read, nextCursor: null });
  });
});
