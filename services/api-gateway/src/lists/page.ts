import { ApiError } from "../http/api-error";
import type { z } from "zod";
import { checkQueryChain } from "../http/query-chain";
import { parseRequest, type ValidationCodes } from "../http/validation";
import type { CursorCodec } from "./cursor";

/**
 * A newest-first page of a list (GET /v1/sweeps, /v1/revocations, /v1/ledger, /v1/webhook/deliveries): where it starts, read from the
 * request, and where it ends, the next cursor. Every refusal is 400 invalid_query naming the
 * parameter, as the spec's pagination rules want.
 */

export const DEFAULT_PAGE_SIZE = 50;

const queryCodes: ValidationCodes = { shapeCode: "invalid_query", noun: "query parameter", valueCodes: {} };

/** The parameters every list query has; its own filters come on top. */
export interface PagedQuery {
  limit?: number | undefined;
  cursor?: string | undefined;
  chain_id?: number | undefined;
}

export interface PageRequest<Q> {
  /** the filters and the rest of the query as the schema parsed it */
  query: Q;
  /** the seq the page reads below; null for the first page */
  below: bigint | null;
  limit: number;
}

export function parsePageRequest<Q extends PagedQuery>(schema: z.ZodType<Q>, input: unknown, cursors: CursorCodec, chains: ReadonlyMap<number, unknown>): PageRequest<Q> {
  const query = parseQuery(schema, input, chains);
  const below = query.cursor === undefined ? null : cursors.decode(query.cursor);
  if (below === null && query.cursor !== undefined) throw new ApiError("invalid_query", "cursor is not a next_cursor of this list");
  return { query, below, limit: query.limit ?? DEFAULT_PAGE_SIZE };
}

/** A read's query, its chain_id one of the environment's; every refusal is 400 invalid_query naming the parameter. */
export function parseQuery<Q extends { chain_id?: number | undefined }>(schema: z.ZodType<Q>, input: unknown, chains: ReadonlyMap<number, unknown>): Q {
  const query = parseRequest(schema, input, queryCodes);
  checkQueryChain(query.chain_id, chains);
  return query;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** The page out of rows read newest first with one row more than the limit: that one tells whether another page follows. */
export function pageOf<T extends { seq: bigint }>(rows: T[], limit: number, cursors: CursorCodec): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? cursors.encode(last.seq) : null };
}
