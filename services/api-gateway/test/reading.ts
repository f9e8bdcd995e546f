import type { Response } from "supertest";
import { DEFAULT_PAGE_SIZE } from "../src/lists/page";

/** What the tests of reading sweeps, revocations and the ledger (GET by id, the newest-first lists) check alike. */

/** Ids that name nothing in any account: one no row can have, one no row has. */
export const idsOfNothing: [string, string][] = [
  ["a malformed id", "not-a-uuid"],
  ["an unknown id", "0b0f6a0e-9d43-4a53-9d0a-0f3d3cf5c2a1"],
];

export type ListQuery = Record<string, string | number>;

/**
 * Follows next_cursor from the first page to the last, each page 200 and within its limit; `between`
 * runs after each page (a test adds rows there). The ids in the order the pages gave them.
 */
export async function readAllPages(list: (query: ListQuery) => Promise<Response>, query: ListQuery, between?: () => Promise<unknown>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await list(cursor ? { ...query, cursor } : query);
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(Number(query.limit ?? DEFAULT_PAGE_SIZE));
    ids.push(...res.body.items.map((item: { id: string }) => item.id));
    cursor = res.body.next_cursor;
    if (between) await between();
  } while (cursor);
  return ids;
}

/** Queries that sweeps and revocations alike refuse, whatever their filters: the page's limit and cursor, the chain. */
export const pagingRefusals: [string, ListQuery, RegExp][] = [
  ["limit 0", { limit: 0 }, /^limit /],
  ["limit 201", { limit: 201 }, /^limit /],
  ["limit abc", { limit: "abc" }, /^limit /],
  ["a forged cursor", { cursor: "bm90LWEtY3Vyc29y" }, /^cursor /],
  ["a chain outside the environment", { chain_id: 1 }, /^chain_id 1 /],
  ["a malformed chain_id", { chain_id: "x" }, /^chain_id /],
];

/** The spec's answer to a query a list refuses: 400 invalid_query, the message naming the parameter. */
export function expectInvalidQuery(res: Response, message: string | RegExp): void {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ error: { code: "invalid_query", message: typeof message === "string" ? message : expect.stringMatching(message) } });
}
