import { Link, useParams } from "react-router";
import type { paths } from "@sweep/client/src/generated/openapi";
import { api, unwrap } from "../api";
import { DataTable } from "../data-table";
import { StatusText } from "../status-text";
import { DetailList } from "../detail-list";
import { formatGas, formatTime, shorten } from "../format";
import { LoadedView, useLoad } from "../loading";
import { FilteredList, useListPage } from "../list-query";
import { PageHeading } from "../page-heading";
import { Amount } from "../amount";
import { readChains } from "../chains";
import { assetOf } from "../units";

const STATUSES = ["queued", "processing", "revoked", "failed", "rejected"];
type RevocationQuery = NonNullable<paths["/v1/revocations"]["get"]["parameters"]["query"]>;

/** Revocations with the API's filters (chain, status, deposit address) and cursor paging. */
export function RevocationsPage() {
  const list = useListPage(["chain_id", "status", "account"], (params) => unwrap(api.GET("/v1/revocations", { params: { query: params as RevocationQuery } })));
  return (
    <>
      <PageHeading title="Revocations" />
      <p>A revocation sets a deposit address's delegate back to none, with the address's own signed authorization.</p>
      <FilteredList list={list} selects={[["status", "Status", "Any status", STATUSES]]} addresses={[["account", "Deposit address"]]} empty="No revocations match.">
        {(revocations) => (
          <DataTable
            caption="Revocations, newest first"
            testId="revocations"
            rows={revocations}
            rowKey={(revocation) => revocation.id}
            columns={[
              { header: "Revocation", rowHeader: true, cell: (revocation) => <Link to={`/revocations/${revocation.id}`}>{revocation.external_id ?? shorten(revocation.id)}</Link> },
              { header: "Created", cell: (revocation) => formatTime(revocation.created_at) },
              { header: "Chain", cell: (revocation) => revocation.chain_id },
              { header: "Deposit address", cell: (revocation) => <code title={revocation.account}>{shorten(revocation.account)}</code> },
              { header: "Status", cell: (revocation) => <StatusText status={revocation.status} reason={revocation.reason} /> },
              { header: "Gas", cell: (revocation) => formatGas(revocation.gas) },
            ]}
          />
        )}
      </FilteredList>
    </>
  );
}

/** One revocation: every field, its transaction and gas. */
export function RevocationPage() {
  const { id = "" } = useParams();
  const loaded = useLoad(async () => {
    const [revocation, chains] = await Promise.all([unwrap(api.GET("/v1/revocations/{id}", { params: { path: { id } } })), readChains()]);
    return { revocation, chains };
  }, [id]);
  return (
    <>
      <PageHeading title="Revocation" />
      <p>
        <Link to="/revocations">All revocations</Link>
      </p>
      <LoadedView loaded={loaded}>
        {({ revocation, chains }) => (
          <DetailList
            testId="revocation-detail"
            rows={[
              ["id", <code key="id">{revocation.id}</code>],
              ["external_id", revocation.external_id],
              ["chain_id", String(revocation.chain_id)],
              ["account (deposit address)", <code key="acc">{revocation.account}</code>],
              ["status", <span key="st" className={`status status-${revocation.status}`}>{revocation.status}</span>],
              ["reason", revocation.reason],
              ["attempts", String(revocation.attempts)],
              ["tx_hash", revocation.tx_hash && <code key="tx" className="hash">{revocation.tx_hash}</code>],
              ["gas (its share of the transaction)", formatGas(revocation.gas)],
              ["gas_cost", <Amount key="gc" value={revocation.gas_cost} asset={assetOf(chains, revocation.chain_id)} />],
              ["created_at", formatTime(revocation.created_at)],
              ["updated_at", formatTime(revocation.updated_at)],
            ]}
          />
        )}
      </LoadedView>
    </>
  );
}
