import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { api, unwrap, type Schemas } from "../api";
import { ChainSelect } from "../chain-select";
import { readChains } from "../chains";
import { formatTime, formatUnits, shorten } from "../format";
import { LoadedView, useLoad } from "../loading";
import { PAGE_SIZE, Pager, useListQuery } from "../list-query";
import { PageHeading } from "../page-heading";

const KINDS: Schemas["LedgerKind"][] = ["gas", "fee", "fee_charge", "fee_credit", "withdrawal", "topup"];

/** The ledger with the API's filters and paging, and the same query as a CSV download. */
export function LedgerPage() {
  const query = useListQuery(["chain_id", "kind"]);
  const { filters, cursor } = query;
  const [draft, setDraft] = useState(filters);
  const loaded = useLoad(async () => {
    const [chains, page] = await Promise.all([
      readChains(),
      unwrap(
        api.GET("/v1/ledger", {
          params: {
            query: {
              limit: PAGE_SIZE,
              cursor,
              chain_id: filters.chain_id ? Number(filters.chain_id) : undefined,
              kind: (filters.kind || undefined) as Schemas["LedgerKind"] | undefined,
            },
          },
        }),
      ),
    ]);
    return { chains, page };
  }, [cursor, filters.chain_id, filters.kind]);
  const csv = new URLSearchParams(Object.entries(filters).filter(([, value]) => value));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    query.apply(draft);
  };

  return (
    <>
      <PageHeading title="Ledger" />
      <p>Every movement of the gas wallet's money: gas paid, fees, charges and credits, withdrawals and top-ups. Amounts in wei, with a sign.</p>
      <LoadedView loaded={loaded}>
        {({ chains, page }) => (
          <>
            <form className="filters" onSubmit={submit} aria-label="Filters">
              <ChainSelect id="ledger-chain" chains={chains} value={draft.chain_id ?? ""} onChange={(chain_id) => setDraft({ ...draft, chain_id })} anyLabel="Any chain" />
              <div className="field">
                <label htmlFor="ledger-kind">Kind</label>
                <select id="ledger-kind" value={draft.kind ?? ""} onChange={(e) => setDraft({ ...draft, kind: e.target.value })}>
                  <option value="">Any kind</option>
                  {KINDS.map((kind) => (
                    <option key={kind}>{kind}</option>
                  ))}
                </select>
              </div>
              <button type="submit">Apply filters</button>
            </form>
            <p>
              <a href={`/console/api/ledger.csv${csv.size ? `?${csv}` : ""}`} download="ledger.csv" data-testid="ledger-csv">
                Download these entries as CSV (every page)
              </a>
            </p>
            {page.items.length === 0 ? (
              <p>No entries match.</p>
            ) : (
              <table data-testid="ledger">
                <caption className="visually-hidden">Ledger entries, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Entry</th>
                    <th scope="col">Time</th>
                    <th scope="col">Chain</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Amount (wei)</th>
                    <th scope="col">Amount (coin)</th>
                    <th scope="col">Transaction</th>
                    <th scope="col">Sweep</th>
                    <th scope="col">Note</th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((entry) => (
                    <tr key={entry.id}>
                      <th scope="row">{entry.id}</th>
                      <td>{formatTime(entry.created_at)}</td>
                      <td>{entry.chain_id}</td>
                      <td>{entry.kind}</td>
                      <td className="number">{entry.amount}</td>
                      <td className="number">{formatUnits(entry.amount)}</td>
                      <td>{entry.tx_hash ? <code title={entry.tx_hash}>{shorten(entry.tx_hash)}</code> : "—"}</td>
                      <td>{entry.sweep_id ? <Link to={`/sweeps/${entry.sweep_id}`}>{shorten(entry.sweep_id)}</Link> : "—"}</td>
                      <td>{entry.note ?? "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <Pager nextCursor={page.next_cursor} cursor={cursor} nextPage={query.nextPage} firstPage={query.firstPage} />
          </>
        )}
      </LoadedView>
    </>
  );
}
