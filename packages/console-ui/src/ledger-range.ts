/**
 * The ledger's date range as the console takes it, whole UTC days from `from` to `to` (both
 * included), as the API's created_after (included) and created_before (left out). A month closes
 * at 00:00 UTC of the next one.
 */
export function ledgerRange(from: string, to: string): { created_after?: string; created_before?: string } {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  const range: { created_after?: string; created_before?: string } = {};
  if (day.test(from)) range.created_after = `${from}T00:00:00.000Z`;
  if (day.test(to)) {
    const next = new Date(`${to}T00:00:00.000Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    range.created_before = next.toISOString();
  }
  return range;
}
