import { Link } from "react-router";
import type { paths } from "@sweep/client/src/generated/openapi";
import { api, unwrap, type Schemas } from "../api";
import { DataTable } from "../data-table";
import { formatTime, formatUnits, shorten } from "../format";
import { FilteredList, useListPage } from "../list-query";
import { PageHeading } from "../page-heading";

const KINDS: Schemas["LedgerKind"][] = ["gas", "fee", "fee_charge", "fee_credit", "withdrawal", "topup"];
type LedgerQuery = NonNullable<paths["/v1/ledger"]["get"]["parameters"]["query"]>;

/** The ledger with the API's filters and paging, and the same query as a CSV download. */
export function LedgerPage() {
  const list = useListPage(["chain_id", "kind"], (params) => unwrap(api.GET("/v1/ledger", { params: { query: params as LedgerQuery } })));
  const csv = new URLSearchParams(Object.entries(list.query.filters).filter(([, value]) => value));
  const download = (
    <p>
      <a href={`/console/api/ledger.csv${csv.size ? `?${csv}` : ""}`} download="ledger.csv" data-testid="ledger-csv">
        Download these entries as CSV (every page)
      </a>
    </p>
  );
  return (
    <>
      <PageHeading title="Ledger" />
      <p>Every movement of the gas wallet's money: gas paid, fees, charges and credits, withdrawals and top-ups. Amounts in wei, with a sign.</p>
      <FilteredList list={list} selects={[["kind", "Kind", "Any kind", KINDS]]} between={download} empty="No entries match.">
        {(entries) => (
          <DataTable
            caption="Ledger entries, newest first"
            testId="ledger"
            rows={entries}
            rowKey={(entry) => String(entry.id)}
            columns={[
              { header: "Entry", rowHeader: true, cell: (entry) => entry.id },
              { header: "Time", cell: (entry) => formatTime(entry.created_at) },
              { header: "Chain", cell: (entry) => entry.chain_id },
              { header: "Kind", cell: (entry) => entry.kind },
              { header: "Amount (wei)", className: "number", cell: (entry) => entry.amount },
              { header: "Amount (coin)", className: "number", cell: (entry) => formatUnits(entry.amount) },
              { header: "Transaction", cell: (entry) => (entry.tx_hash ? <code title={entry.tx_hash}>{shorten(entry.tx_hash)}</code> : "—") },
              { header: "Sweep", cell: (entry) => (entry.sweep_id ? <Link to={`/sweeps/${entry.sweep_id}`}>{shorten(entry.sweep_id)}</Link> : "—") },
              { header: "Note", cell: (entry) => entry.note ?? "—" },
            ]}
          />
        )}
      </FilteredList>
    </>
  );
}
