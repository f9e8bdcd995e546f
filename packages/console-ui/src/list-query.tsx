import { useState, type FormEvent, type ReactNode } from "react";
import { Link, useSearchParams } from "react-router";
import { ChainSelect } from "./chain-select";
import { readChains, type ConsoleChain } from "./chains";
import { apiListQuery } from "./list-api-query";
import { LoadedView, useLoad } from "./loading";

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

export type ListQuery = ReturnType<typeof useListQuery>;

interface ApiPage<T> {
  items: T[];
  next_cursor: string | null;
}

/** A list page's data: the chains (for its filter) and the page the API answers for the address's filters and cursor. */
export function useListPage<T>(names: readonly string[], readPage: (query: Record<string, string | number | undefined>) => Promise<ApiPage<T>>) {
  const query = useListQuery(names);
  const loaded = useLoad(async () => {
    const [chains, page] = await Promise.all([readChains(), readPage(apiListQuery(query.filters, query.cursor))]);
    return { chains, page };
  }, [query.cursor, JSON.stringify(query.filters)]);
  return { query, loaded };
}

/** A select filter: its query name, label, the "any" option's text, and the values. */
export type SelectFilter = [name: string, label: string, anyLabel: string, values: readonly string[]];

/** Filter form: the chain, selects (status, kind) and address fields, as the API's list query takes them. */
export function ListFilters({
  filters,
  selects,
  addresses = [],
  dates = [],
  chains,
  onApply,
}: {
  filters: Record<string, string>;
  selects: readonly SelectFilter[];
  addresses?: readonly [name: string, label: string][];
  /** date fields (YYYY-MM-DD in the address) */
  dates?: readonly [name: string, label: string][];
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
      {selects.map(([name, label, anyLabel, values]) => (
        <div className="field" key={name}>
          <label htmlFor={`filter-${name}`}>{label}</label>
          <select id={`filter-${name}`} value={draft[name] ?? ""} onChange={(e) => set(name)(e.target.value)}>
            <option value="">{anyLabel}</option>
            {values.map((value) => (
              <option key={value}>{value}</option>
            ))}
          </select>
        </div>
      ))}
      {addresses.map(([name, label]) => (
        <div className="field" key={name}>
          <label htmlFor={`filter-${name}`}>{label}</label>
          <input id={`filter-${name}`} placeholder="0x…" value={draft[name] ?? ""} onChange={(e) => set(name)(e.target.value.trim())} />
        </div>
      ))}
      {dates.map(([name, label]) => (
        <div className="field" key={name}>
          <label htmlFor={`filter-${name}`}>{label}</label>
          <input id={`filter-${name}`} type="date" value={draft[name] ?? ""} onChange={(e) => set(name)(e.target.value)} />
        </div>
      ))}
      <button type="submit">Apply filters</button>
    </form>
  );
}

/** A page of a list: its table, or what to say when nothing matches; then cursor paging (the next page while the API gives a cursor, and back to the first). */
export function ListResults({ page, query, empty, children }: { page: ApiPage<unknown>; query: ListQuery; empty: string; children: ReactNode }) {
  return (
    <>
      {page.items.length === 0 ? <p>{empty}</p> : children}
      <nav aria-label="Pages" className="pager">
        {query.cursor && <Link to={query.firstPage}>First page</Link>}
        {page.next_cursor && <Link to={query.nextPage(page.next_cursor)}>Next page</Link>}
      </nav>
    </>
  );
}

/**
 * A list page's body once loaded: the filter form, what the page shows between it and the results
 * (`between`), and the page of results (`children`, given its items and the chains' units) with the pager.
 */
export function FilteredList<T>({
  list,
  selects,
  addresses,
  dates,
  between,
  empty,
  children,
}: {
  list: ReturnType<typeof useListPage<T>>;
  selects: readonly SelectFilter[];
  addresses?: readonly [name: string, label: string][];
  dates?: readonly [name: string, label: string][];
  between?: ReactNode;
  empty: string;
  children: (items: T[], chains: ConsoleChain[]) => ReactNode;
}) {
  const { query, loaded } = list;
  return (
    <LoadedView loaded={loaded}>
      {({ chains, page }) => (
        <>
          <ListFilters key={JSON.stringify(query.filters)} filters={query.filters} selects={selects} addresses={addresses} dates={dates} chains={chains} onApply={query.apply} />
          {between}
          <ListResults page={page} query={query} empty={empty}>
            {children(page.items, chains)}
          </ListResults>
        </>
      )}
    </LoadedView>
  );
}
