import { Link } from "react-router";
import type { paths } from "@sweep/client/src/generated/openapi";
import { api, unwrap, type Schemas } from "../api";
import { formatTime, formatUnits, shorten } from "../format";
import { LoadedView } from "../loading";
import { ListFilters, ListResults, useListPage } from "../list-query";
import { PageHeading } from "../page-heading";

const KINDS: Schemas["LedgerKind"][] = ["gas", "fee", "fee_charge", "fee_credit", "withdrawal", "topup"];
type LedgerQuery = NonNullable<paths["/v1/ledger"]["get"]["parameters"]["query"]>;

/** The ledger with the API's filters and paging, and the same query as a CSV download. */
export function LedgerPage() {
  const { query, loaded } = useListPage(["chain_id", "kind"], (params) => unwrap(api.GET("/v1/ledger", { params: { query: params as LedgerQuery } })));
  const csv = new URLSearchParams(Object.entries(query.filters).filter(([, value]) => value));
  return (
    <>
      <PageHeading title="Ledger" />
      <p>Every movement of the gas wallet's money: gas paid, fees, charges and credits, withdrawals and top-ups. Amounts in wei, with a sign.</p>
      <LoadedView loaded={loaded}>
        {({ chains, page }) => (
          <>
            <ListFilters key={JSON.stringify(query.filters)} filters={query.filters} selects={[["kind", "Kind", "Any kind", KINDS]]} chains={chains} onApply={query.apply} />
            <p>
              <a href={`/console/api/ledger.csv${csv.size ? `?${csv}` : ""}`} download="ledger.csv" data-testid="ledger-csv">
                Download these entries as CSV (every page)
              </a>
            </p>
            <ListResults page={page} query={query} empty="No entries match.">
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
            </ListResults>
          </>
        )}
      </LoadedView>
    </>
  );
}
