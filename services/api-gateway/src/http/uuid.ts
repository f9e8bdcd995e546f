const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path's {id} that can name a row (a uuid, any case); anything else names none, so it is 404 without a query. */
export function isUuid(id: string): boolean {
  return uuid.test(id);
}
