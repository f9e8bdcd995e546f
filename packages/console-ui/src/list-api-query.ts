export const PAGE_SIZE = 25;

/** The query string of the API's list endpoints: page size, cursor, chain_id as a number, the other filters as given; an empty filter is left out. */
export function apiListQuery(filters: Record<string, string>, cursor: string | undefined): Record<string, string | number | undefined> {
  const query: Record<string, string | number | undefined> = { limit: PAGE_SIZE, cursor };
  for (const [name, value] of Object.entries(filters)) query[name] = value === "" ? undefined : name === "chain_id" ? Number(value) : value;
  return query;
}
