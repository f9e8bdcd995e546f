import { useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import type { paths } from "@sweep/client/src/generated/openapi";
import { api, unwrap, type Schemas } from "../api";
import { DataTable } from "../data-table";
import { StatusText } from "../status-text";
import { DetailList } from "../detail-list";
import { compareFee } from "../fee-comparison";
import { formatGas, formatTime, formatUnits, percentOf, shorten } from "../format";
import { LoadedView, useLoad } from "../loading";
import { FilteredList, useListPage } from "../list-query";
import { PageHeading } from "../page-heading";
import { sweepSearch } from "../sweep-search";

const STATUSES = ["queued", "processing", "swept", "failed", "rejected"];
type SweepQuery = NonNullable<paths["/v1/sweeps"]["get"]["parameters"]["query"]>;

/** Sweeps with the API's filters (chain, status, deposit address, hot wallet, external_id, transaction) and cursor paging, and a search box for any of them or an id. */
export function SweepsPage() {
  const list = useListPage(["chain_id", "status", "account", "hot_wallet", "external_id", "tx_hash"], (params) => unwrap(api.GET("/v1/sweeps", { params: { query: params as SweepQuery } })));
  return (
    <>
      <PageHeading title="Sweeps" />
      <SweepSearchForm onFilter={(name, value) => list.query.apply({ [name]: value })} />
      <FilteredList
        list={list}
        selects={[["status", "Status", "Any status", STATUSES]]}
        addresses={[
          ["account", "Deposit address"],
          ["hot_wallet", "Hot wallet"],
        ]}
        empty="No sweeps match."
      >
        {(sweeps) => (
          <DataTable
            caption="Sweeps, newest first"
            testId="sweeps"
            rows={sweeps}
            rowKey={(sweep) => sweep.id}
            rowData={(sweep) => ({ "data-sweep-id": sweep.id })}
            columns={[
              {
                header: "Sweep",
                rowHeader: true,
                cell: (sweep) => (
                  <Link to={`/sweeps/${sweep.id}`} title={sweep.id}>
                    <code>{shorten(sweep.id)}</code>
                  </Link>
                ),
              },
              { header: "External id", cell: (sweep) => sweep.external_id ?? "" },
              { header: "Created", cell: (sweep) => formatTime(sweep.created_at) },
              { header: "Chain", cell: (sweep) => sweep.chain_id },
              { header: "Deposit address", cell: (sweep) => <code title={sweep.account}>{shorten(sweep.account)}</code> },
              { header: "Token", cell: (sweep) => sweep.token },
              { header: "Status", testId: "sweep-status", cell: (sweep) => <StatusText status={sweep.status} reason={sweep.reason} /> },
              { header: "Swept amount", cell: (sweep) => sweep.swept_amount ?? "—" },
              { header: "Fee (wei)", testId: "sweep-fee", cell: (sweep) => sweep.fee ?? "—" },
            ]}
          />
        )}
      </FilteredList>
    </>
  );
}

/** One box for an id, an external_id, a deposit address or a transaction hash (sweep-search.ts says which is which). */
function SweepSearchForm({ onFilter }: { onFilter: (name: string, value: string) => void }) {
  const [text, setText] = useState("");
  const navigate = useNavigate();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const search = sweepSearch(text);
    if (search === null) return;
    if (!("open" in search)) return onFilter(search.filter, search.value);
    // A sweep of that id, or else the sweep whose external_id it is.
    const found = await api.GET("/v1/sweeps/{id}", { params: { path: { id: search.open } } });
    if (found.response.ok) void navigate(`/sweeps/${search.open}`);
    else onFilter("external_id", search.orExternalId);
  };
  return (
    <form className="filters" onSubmit={(event) => void submit(event)} aria-label="Search sweeps">
      <div className="field">
        <label htmlFor="sweep-search">Find a sweep</label>
        <input id="sweep-search" value={text} onChange={(e) => setText(e.target.value)} aria-describedby="sweep-search-help" />
        <p id="sweep-search-help" className="muted">
          Its id, external_id, deposit address or transaction hash.
        </p>
      </div>
      <button type="submit">Find</button>
    </form>
  );
}

async function readSweep(id: string) {
  const [sweep, tariff] = await Promise.all([unwrap(api.GET("/v1/sweeps/{id}", { params: { path: { id } } })), unwrap(api.GET("/v1/tariff"))]);
  return { sweep, tariff: tariff.chains.find((chain) => chain.chain_id === sweep.chain_id) };
}

/** One sweep: every field, its transaction and gas, and its fee against the classic benchmark of the tariff. */
export function SweepPage() {
  const { id = "" } = useParams();
  const loaded = useLoad(() => readSweep(id), [id]);
  return (
    <>
      <PageHeading title="Sweep" />
      <p>
        <Link to="/sweeps">All sweeps</Link>
      </p>
      <LoadedView loaded={loaded}>{({ sweep, tariff }) => <SweepDetail sweep={sweep} tariff={tariff} />}</LoadedView>
    </>
  );
}

function SweepDetail({ sweep, tariff }: { sweep: Schemas["Sweep"]; tariff: Schemas["ChainTariff"] | undefined }) {
  const native = tariff ? ` (${tariff.name})` : "";
  const comparison = compareFee(sweep);
  const benchmark = tariff?.classic_gas?.[sweep.token];
  return (
    <>
      <h2>Fields</h2>
      <DetailList
        testId="sweep-detail"
        rows={[
          ["id", <code key="id">{sweep.id}</code>],
          ["external_id", sweep.external_id],
          ["chain_id", `${sweep.chain_id}${native}`],
          ["hot_wallet", <code key="hw">{sweep.hot_wallet}</code>],
          ["account (deposit address)", <code key="acc">{sweep.account}</code>],
          ["token", sweep.token],
          ["token_address", sweep.token_address && <code key="ta">{sweep.token_address}</code>],
          ["amount requested", sweep.amount ?? "the whole balance"],
          ["keep_one_unit", sweep.keep_one_unit ? "yes" : "no"],
          ["status", <span key="st" data-testid="detail-status" className={`status status-${sweep.status}`}>{sweep.status}</span>],
          ["reason", sweep.reason],
          ["attempts", String(sweep.attempts)],
          ["swept_amount", sweep.swept_amount],
          ["created_at", formatTime(sweep.created_at)],
          ["updated_at", formatTime(sweep.updated_at)],
        ]}
      />
      <h2>Transaction and gas</h2>
      <DetailList
        rows={[
          ["tx_hash", sweep.tx_hash && <code key="tx" className="hash">{sweep.tx_hash}</code>],
          ["kind", sweep.kind && `${sweep.kind}${sweep.kind === "repeat" ? " (already delegated)" : " (bears the delegation" + (sweep.kind === "first_new" ? " and the account's creation)" : ")")}`],
          ["gas (its share of the batch)", formatGas(sweep.gas)],
          ["gas_cost (wei)", sweep.gas_cost],
        ]}
      />
      <h2>Fee against the classic benchmark</h2>
      {comparison ? (
        <>
          <DetailList
            testId="fee-comparison"
            rows={[
              ["fee (wei)", <span key="fee" data-testid="detail-fee">{sweep.fee}</span>],
              ["rate", sweep.rate_bps === undefined ? undefined : `${sweep.rate_bps} bps (${sweep.rate_bps / 100}%)`],
              ["classic benchmark", `${formatGas(sweep.classic_gas)} gas = ${formatUnits(comparison.classicCost.toString())} at ${comparison.gasPrice} wei/gas`],
              ["this sweep: gas + fee", `${formatUnits(comparison.total.toString())} (${percentOf(comparison.total, comparison.classicCost)} of the classic cost)`],
              [
                "saved against the classic transfer",
                comparison.saved >= 0n
                  ? formatUnits(comparison.saved.toString())
                  : `none: ${formatUnits((-comparison.saved).toString())} more (a first sweep bears the address's delegation; its repeat sweeps save)`,
              ],
              ["tariff benchmark for " + sweep.token, benchmark ? `${formatGas(benchmark.new)} gas for a new address, ${formatGas(benchmark.existing)} for an existing one` : undefined],
            ]}
          />
          <p className="muted">Amounts in the chain's native coin. Token fee = max(0, rate × classic benchmark − the sweep's gas); native coin fee = a markup on gas, never more than the sweep saves.</p>
        </>
      ) : (
        <p>The fee and its comparison are known once the sweep is swept.</p>
      )}
    </>
  );
}
