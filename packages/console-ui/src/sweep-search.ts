/**
 * What the sweeps page's search box asks for, by the shape of what was typed: something shaped as a
 * sweep id opens that sweep, or, when the account has none of that id, is an external_id (the SDK
 * makes its external_ids up as UUIDs); an address lists its sweeps; a transaction hash lists the
 * sweeps its batch carried; anything else is an external_id (yours, or a policy's deposit:…).
 */
export type SweepSearch = { open: string; orExternalId: string } | { filter: "account" | "tx_hash" | "external_id"; value: string } | null;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function sweepSearch(typed: string): SweepSearch {
  const text = typed.trim();
  if (text === "") return null;
  if (UUID.test(text)) return { open: text.toLowerCase(), orExternalId: text };
  if (/^0x[0-9a-fA-F]{40}$/.test(text)) return { filter: "account", value: text };
  if (/^0x[0-9a-fA-F]{64}$/.test(text)) return { filter: "tx_hash", value: text };
  return { filter: "external_id", value: text };
}
