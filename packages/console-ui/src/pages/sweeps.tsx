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
import { Amount } from "../amount";
import { assetOf } from "../units";

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
        {(sweeps, chains) => (
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
              { header: "Swept amount", className: "number", cell: (sweep) => <Amount value={sweep.swept_amount} asset={assetOf(chains, sweep.chain_id, sweep.token)} /> },
              { header: "Fee", className: "number", testId: "sweep-fee", cell: (sweep) => <Amount value={sweep.fee} asset={assetOf(chains, sweep.chain_id)} /> },
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
  const chains = tariff ? [tariff] : [];
  const coin = assetOf(chains, sweep.chain_id);
  const token = assetOf(chains, sweep.chain_id, sweep.token);
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
          ["amount requested", sweep.amount === undefined ? "the whole balance" : <Amount key="am" value={sweep.amount} asset={token} />],
          ["keep_one_unit", sweep.keep_one_unit ? "yes" : "no"],
          ["status", <span key="st" data-testid="detail-status" className={`status status-${sweep.status}`}>{sweep.status}</span>],
          ["reason", sweep.reason],
          ["attempts", String(sweep.attempts)],
          ["swept_amount", sweep.swept_amount && <Amount key="sa" value={sweep.swept_amount} asset={token} testId="detail-swept-amount" />],
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
          ["gas_cost", sweep.gas_cost && <Amount key="gc" value={sweep.gas_cost} asset={coin} />],
        ]}
      />
      <h2>Fee against the classic benchmark</h2>
      {comparison ? (
        <>
          <DetailList
            testId="fee-comparison"
            rows={[
              ["fee", <Amount key="fee" value={sweep.fee} asset={coin} testId="detail-fee" />],
              ["rate", sweep.rate_bps === undefined ? undefined : `${sweep.rate_bps} bps (${sweep.rate_bps / 100}%)`],
              ["classic benchmark", <span key="cb">{formatGas(sweep.classic_gas)} gas = <Amount value={comparison.classicCost.toString()} asset={coin} /> at {formatUnits(comparison.gasPrice.toString(), 9)} gwei</span>],
              ["this sweep: gas + fee", <span key="tot"><Amount value={comparison.total.toString()} asset={coin} /> ({percentOf(comparison.total, comparison.classicCost)} of the classic cost)</span>],
              ["saved against the classic transfer", comparison.saved >= 0n ? <Amount key="sv" value={comparison.saved.toString()} asset={coin} /> : <span key="sv">none: <Amount value={(-comparison.saved).toString()} asset={coin} /> more</span>],
              ["tariff benchmark for " + sweep.token, benchmark ? `${formatGas(benchmark.new)} gas for a new address, ${formatGas(benchmark.existing)} for an existing one` : undefined],
            ]}
          />
          {comparison.saved < 0n && <FirstSweepCost sweep={sweep} tariff={tariff} />}
          <p className="muted">Token fee = max(0, rate × classic benchmark − the sweep&apos;s gas); native coin fee = a markup on gas, never more than the sweep saves.</p>
        </>
      ) : (
        <p data-testid="fee-pending">{feeNotYet(sweep.status)}</p>
      )}
    </>
  );
}

/** Why a sweep has no fee comparison: not swept yet, or never to be. */
function feeNotYet(status: Schemas["Sweep"]["status"]): string {
  if (status === "rejected") return "No fee: the sweep was rejected before anything was sent, and nothing is charged for it.";
  if (status === "failed") return "No fee: the sweep failed, and nothing is charged for it; the gas of an attempt that reached the chain is in the ledger.";
  return "The fee and its comparison are known once the sweep is swept.";
}

/**
 * Why a sweep cost more than the classic transfer, and what makes the next ones cheaper: a first
 * sweep carries the address's delegation (and its account's creation), and a sweep alone in its
 * transaction bears the transaction's whole base cost.
 */
function FirstSweepCost({ sweep, tariff }: { sweep: Schemas["Sweep"]; tariff: Schemas["ChainTariff"] | undefined }) {
  const extra = tariff?.extra_gas;
  const first = sweep.kind === "first" || sweep.kind === "first_new";
  return (
    <div className="note" data-testid="first-sweep-cost">
      <p>
        <strong>Why this sweep cost more than a classic transfer:</strong>
      </p>
      <ul>
        {first && (
          <li>
            It was this address&apos;s first sweep: the transaction also set the address&apos;s delegation from its signed authorization
            {extra ? ` (${formatGas(extra.delegation)} gas)` : ""}
            {sweep.kind === "first_new" ? `, and created its account on the chain${extra ? ` (${formatGas(extra.account)} gas)` : ""}` : ""}. That is paid once per address: its later sweeps are repeat sweeps, without it.
          </li>
        )}
        <li>A transaction has a base cost of 21,000 gas, shared by the sweeps it carries: a sweep alone in its batch bears all of it. Sweeps requested together, or within the batch window, share one transaction, and each then costs a fraction of a classic transfer.</li>
      </ul>
    </div>
  );
}
