/** A page of a list: newest first; `next_cursor` is null on the last page. */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/**
 * Every item of a list, page after page, fetched as the iteration reaches it: stop early
 * (`break`) and no further page is asked for. Rows added meanwhile neither shift nor repeat.
 */
export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.items;
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
}
