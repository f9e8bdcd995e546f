import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { ChainSelect } from "./chain-select";

export const PAGE_SIZE = 25;

/** A list's filters and cursor live in the address, so a filtered page can be linked and Back returns to the previous page. */
export function useListQuery(names: readonly string[]) {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(names.map((name) => [name, params.get(name) ?? ""])) as Record<string, string>;
  const cursor = params.get("cursor") ?? undefined;
  const apply = (next: Record<string, string>) => {
    const kept = new URLSearchParams();
    for (const [name, value] of Object.entries(next)) if (value) kept.set(name, value);
    setParams(kept);
  };
  const nextPage = (nextCursor: string) => {
    const moved = new URLSearchParams(params);
    moved.set("cursor", nextCursor);
    return `?${moved}`;
  };
  const withoutCursor = new URLSearchParams(params);
  withoutCursor.delete("cursor");
  return { filters, cursor, apply, nextPage, firstPage: `?${withoutCursor}` };
}

/** Filter form: the chain, a status, and address fields, as the API's list query takes them. */
export function ListFilters({
  filters,
  statuses,
  addresses,
  chains,
  onApply,
}: {
  filters: Record<string, string>;
  statuses: readonly string[];
  addresses: readonly [name: string, label: string][];
  chains: { chain_id: number; name: string }[];
  onApply: (filters: Record<string, string>) => void;
}) {
  const [draft, setDraft] = useState(filters);
  const set = (name: string) => (value: string) => setDraft((previous) => ({ ...previous, [name]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Filters">
      <ChainSelect id="filter-chain" chains={chains} value={draft.chain_id ?? ""} onChange={set("chain_id")} anyLabel="Any chain" />
      <div className="field">
        <label htmlFor="filter-status">Status</label>
        <select id="filter-status" value={draft.status ?? ""} onChange={(e) => set("status")(e.target.value)}>
          <option value="">Any status</option>
          {statuses.map((status) => (
            <option key={status}>{status}</option>
          ))}
        </select>
      </div>
      {addresses.map(([name, label]) => (
        <div className="field" key={name}>
          <label htmlFor={`filter-${name}`}>{label}</label>
          <input id={`filter-${name}`} placeholder="0x…" value={draft[name] ?? ""} onChange={(e) => set(name)(e.target.value.trim())} />
        </div>
      ))}
      <button type="submit">Apply filters</button>
    </form>
  );
}

/** Cursor paging: the next page while the API gives a cursor, and back to the first page. */
export function Pager({ nextCursor, cursor, nextPage, firstPage }: { nextCursor: string | null; cursor: string | undefined; nextPage: (cursor: string) => string; firstPage: string }) {
  return (
    <nav aria-label="Pages" className="pager">
      {cursor && <Link to={firstPage}>First page</Link>}
      {nextCursor && <Link to={nextPage(nextCursor)}>Next page</Link>}
    </nav>
  );
}
