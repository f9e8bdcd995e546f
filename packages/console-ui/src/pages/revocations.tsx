import { Link, useParams } from "react-router";
import type { paths } from "@sweep/client/src/generated/openapi";
import { api, unwrap } from "../api";
import { DetailList } from "../detail-list";
import { formatGas, formatTime, shorten } from "../format";
import { LoadedView, useLoad } from "../loading";
import { ListFilters, ListResults, useListPage } from "../list-query";
import { PageHeading } from "../page-heading";

const STATUSES = ["queued", "processing", "revoked", "failed", "rejected"];
type RevocationQuery = NonNullable<paths["/v1/revocations"]["get"]["parameters"]["query"]>;

/** Revocations with the API's filters (chain, status, deposit address) and cursor paging. */
export function RevocationsPage() {
  const { query, loaded } = useListPage(["chain_id", "status", "account"], (params) =>
    unwrap(api.GET("/v1/revocations", { params: { query: params as RevocationQuery } })),
  );
  return (
    <>
      <PageHeading title="Revocations" />
      <p>A revocation sets a deposit address's delegate back to none, with the address's own signed authorization.</p>
      <LoadedView loaded={loaded}>
        {({ chains, page }) => (
          <>
            <ListFilters
              key={JSON.stringify(query.filters)}
              filters={query.filters}
              selects={[["status", "Status", "Any status", STATUSES]]}
              addresses={[["account", "Deposit address"]]}
              chains={chains}
              onApply={query.apply}
            />
            <ListResults page={page} query={query} empty="No revocations match.">
              <table data-testid="revocations">
                <caption className="visually-hidden">Revocations, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Revocation</th>
                    <th scope="col">Created</th>
                    <th scope="col">Chain</th>
                    <th scope="col">Deposit address</th>
                    <th scope="col">Status</th>
                    <th scope="col">Gas</th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((revocation) => (
                    <tr key={revocation.id}>
                      <th scope="row">
                        <Link to={`/revocations/${revocation.id}`}>
                          {revocation.external_id ?? shorten(revocation.id)}
                        </Link>
                      </th>
                      <td>{formatTime(revocation.created_at)}</td>
                      <td>{revocation.chain_id}</td>
                      <td>
                        <code title={revocation.account}>{shorten(revocation.account)}</code>
                      </td>
                      <td>
                        <span className={`status status-${revocation.status}`}>{revocation.status}</span>
                        {revocation.reason && ` (${revocation.reason})`}
                      </td>
                      <td>{formatGas(revocation.gas)}</td>
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

/** One revocation: every field, its transaction and gas. */
export function RevocationPage() {
  const { id = "" } = useParams();
  const loaded = useLoad(() => unwrap(api.GET("/v1/revocations/{id}", { params: { path: { id } } })), [id]);
  return (
    <>
      <PageHeading title="Revocation" />
      <p>
        <Link to="/revocations">All revocations</Link>
      </p>
      <LoadedView loaded={loaded}>
        {(revocation) => (
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
              ["gas_cost (wei)", revocation.gas_cost],
              ["created_at", formatTime(revocation.created_at)],
              ["updated_at", formatTime(revocation.updated_at)],
            ]}
          />
        )}
      </LoadedView>
    </>
  );
}
