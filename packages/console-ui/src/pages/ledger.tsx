import { Link } from "react-router";
import type { paths } from "@sweep/client/src/generated/openapi";
import { api, unwrap, type Schemas } from "../api";
import { Amount } from "../amount";
import { DataTable } from "../data-table";
import { formatTime, shorten } from "../format";
import { ledgerRange } from "../ledger-range";
import { FilteredList, useListPage } from "../list-query";
import { LoadedView, useLoad } from "../loading";
import { PageHeading } from "../page-heading";
import type { ConsoleChain } from "../chains";
import { assetOf } from "../units";

const KINDS: Schemas["LedgerKind"][] = ["gas", "fee", "fee_charge", "fee_credit", "withdrawal", "topup"];
type LedgerQuery = NonNullable<paths["/v1/ledger"]["get"]["parameters"]["query"]>;

/** The address's filters (dates as YYYY-MM-DD) as the API's query: the days as a time range. */
function apiQuery({ from, to, ...rest }: Record<string, string | number | undefined>) {
  return { ...rest, ...ledgerRange(String(from ?? ""), String(to ?? "")) };
}

/** The ledger with the API's filters, a date range and paging, the period's totals, and the same query as a CSV download. */
export function LedgerPage() {
  const list = useListPage(["chain_id", "kind", "from", "to"], (params) => unwrap(api.GET("/v1/ledger", { params: { query: apiQuery(params) as LedgerQuery } })));
  const { from = "", to = "", chain_id = "", kind = "" } = list.query.filters;
  const csv = new URLSearchParams(Object.entries({ chain_id, kind, ...ledgerRange(from, to) }).filter(([, value]) => value));
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
      <p>
        Every movement of the gas wallet&apos;s money: gas paid, fees, charges and credits, withdrawals and top-ups, with the balance after each. Dates are whole UTC days; amounts in the
        chain&apos;s coin (hover for wei).
      </p>
      <PeriodTotals chainId={chain_id} from={from} to={to} chains={list.loaded.data?.chains} />
      <FilteredList
        list={list}
        selects={[["kind", "Kind", "Any kind", KINDS]]}
        dates={[
          ["from", "From (UTC day)"],
          ["to", "To (UTC day, included)"],
        ]}
        between={download}
        empty="No entries match."
      >
        {(entries, chains) => (
          <DataTable
            caption="Ledger entries, newest first"
            testId="ledger"
            rows={entries}
            rowKey={(entry) => String(entry.id)}
            rowData={(entry) => ({ "data-kind": entry.kind })}
            columns={[
              { header: "Entry", rowHeader: true, cell: (entry) => entry.id },
              { header: "Time", cell: (entry) => formatTime(entry.created_at) },
              { header: "Chain", cell: (entry) => entry.chain_id },
              { header: "Kind", cell: (entry) => entry.kind },
              { header: "For", testId: "ledger-paid-for", cell: (entry) => <PaidFor entry={entry} /> },
              { header: "Amount", className: "number", cell: (entry) => <Amount value={entry.amount} asset={assetOf(chains, entry.chain_id)} /> },
              { header: "Balance after", className: "number", testId: "ledger-balance-after", cell: (entry) => <Amount value={entry.balance_after} asset={assetOf(chains, entry.chain_id)} /> },
              { header: "Transaction", cell: (entry) => (entry.tx_hash ? <code title={entry.tx_hash}>{shorten(entry.tx_hash)}</code> : "—") },
              { header: "Note", cell: (entry) => entry.note ?? "—" },
            ]}
          />
        )}
      </FilteredList>
    </>
  );
}

/** What an entry is for, linked to where it is seen: a fee's sweep, a gas entry's batch, deployment, withdrawal or drain. */
function PaidFor({ entry }: { entry: Schemas["LedgerEntry"] }) {
  if (entry.sweep_id)
    return (
      <Link to={`/sweeps/${entry.sweep_id}`} title={entry.sweep_id}>
        sweep {shorten(entry.sweep_id)}
      </Link>
    );
  const paid = entry.paid_for;
  if (!paid || !entry.tx_hash) return <>—</>;
  switch (paid.kind) {
    case "sweep_batch":
      return <Link to={`/sweeps?tx_hash=${entry.tx_hash}`}>{`a batch of ${paid.items} sweep${paid.items === 1 ? "" : "s"}`}</Link>;
    case "revocation_batch":
      return <Link to="/revocations">{`a batch of ${paid.items} revocation${paid.items === 1 ? "" : "s"}`}</Link>;
    case "delegate_deployment":
      return <Link to="/hot-wallets">{`the delegate of hot wallet ${paid.hot_wallet ? shorten(paid.hot_wallet) : ""}`}</Link>;
    case "withdrawal":
      return <Link to="/ledger?kind=withdrawal">a withdrawal of fees</Link>;
    case "drain":
      return <Link to="/ledger?kind=withdrawal">a drain of the gas wallet</Link>;
    case "nonce_fill":
      return <>a nonce fill (self-transfer)</>;
  }
}

/** The period's figures per chain: opening balance, what moved it, closing balance, and the fees of the period. */
function PeriodTotals({ chainId, from, to, chains }: { chainId: string; from: string; to: string; chains: ConsoleChain[] | undefined }) {
  // The chains' names and coins come with the list's page (one GET /v1/tariff for the page); the totals are read here.
  const summary = useLoad(() => unwrap(api.GET("/v1/ledger/summary", { params: { query: { ...(chainId && { chain_id: Number(chainId) }), ...ledgerRange(from, to) } } })), [chainId, from, to]);
  const loaded = { ...summary, data: chains && summary.data && { chains, summary: summary.data } };
  return (
    <section aria-labelledby="period-heading">
      <h2 id="period-heading">
        Totals {from || to ? `from ${from || "the start"} to ${to || "now"}` : "since the start"} (UTC)
      </h2>
      <LoadedView loaded={loaded}>
        {({ chains, summary }) => (
          <DataTable
            caption="The period's totals per chain"
            testId="ledger-totals"
            rows={summary.chains}
            rowKey={(line) => String(line.chain_id)}
            rowData={(line) => ({ "data-chain-id": String(line.chain_id) })}
            columns={totalsColumns(chains)}
          />
        )}
      </LoadedView>
    </section>
  );
}

function totalsColumns(chains: ConsoleChain[]) {
  const coin = (line: Schemas["LedgerChainSummary"], value: string) => <Amount value={value} asset={assetOf(chains, line.chain_id)} />;
  const fees = (t: Schemas["LedgerChainSummary"]["totals"]) => (BigInt(t.fee) + BigInt(t.fee_charge) + BigInt(t.fee_credit)).toString();
  return [
    { header: "Chain", rowHeader: true, cell: (line: Schemas["LedgerChainSummary"]) => chains.find((c) => c.chain_id === line.chain_id)?.name ?? line.chain_id },
    { header: "Opening balance", className: "number", cell: (line: Schemas["LedgerChainSummary"]) => coin(line, line.opening_balance) },
    { header: "Gas", className: "number", cell: (line: Schemas["LedgerChainSummary"]) => coin(line, line.totals.gas) },
    { header: "Withdrawals", className: "number", cell: (line: Schemas["LedgerChainSummary"]) => coin(line, line.totals.withdrawal) },
    { header: "Top-ups", className: "number", cell: (line: Schemas["LedgerChainSummary"]) => coin(line, line.totals.topup) },
    { header: "Closing balance", className: "number", testId: "ledger-closing", cell: (line: Schemas["LedgerChainSummary"]) => coin(line, line.closing_balance) },
    { header: "Fees, charges and credits", className: "number", cell: (line: Schemas["LedgerChainSummary"]) => coin(line, fees(line.totals)) },
    { header: "Entries", className: "number", cell: (line: Schemas["LedgerChainSummary"]) => line.entries },
  ];
}
