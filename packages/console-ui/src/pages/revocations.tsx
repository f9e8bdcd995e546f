import { Link, useParams } from "react-router";
import { api, unwrap } from "../api";
import { readChains } from "../chains";
import { DetailList } from "../detail-list";
import { formatGas, formatTime, shorten } from "../format";
import { LoadedView, useLoad } from "../loading";
import { ListFilters, PAGE_SIZE, Pager, useListQuery } from "../list-query";
import { PageHeading } from "../page-heading";

const STATUSES = ["queued", "processing", "revoked", "failed", "rejected"] as const;
type RevocationStatus = (typeof STATUSES)[number];

/** Revocations with the API's filters (chain, status, deposit address) and cursor paging. */
export function RevocationsPage() {
  const query = useListQuery(["chain_id", "status", "account"]);
  const { filters, cursor } = query;
  const loaded = useLoad(async () => {
    const [chains, page] = await Promise.all([
      readChains(),
      unwrap(
        api.GET("/v1/revocations", {
          params: {
            query: {
              limit: PAGE_SIZE,
              cursor,
              chain_id: filters.chain_id ? Number(filters.chain_id) : undefined,
              status: (filters.status || undefined) as RevocationStatus | undefined,
              account: filters.account || undefined,
            },
          },
        }),
      ),
    ]);
    return { chains, page };
  }, [cursor, filters.chain_id, filters.status, filters.account]);

  return (
    <>
      <PageHeading title="Revocations" />
      <p>A revocation sets a deposit address's delegate back to none, with the address's own signed authorization.</p>
      <LoadedView loaded={loaded}>
        {({ chains, page }) => (
          <>
            <ListFilters key={JSON.stringify(filters)} filters={filters} statuses={STATUSES} addresses={[["account", "Deposit address"]]} chains={chains} onApply={query.apply} />
            {page.items.length === 0 ? (
              <p>No revocations match.</p>
            ) : (
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
            )}
            <Pager nextCursor={page.next_cursor} cursor={cursor} nextPage={query.nextPage} firstPage={query.firstPage} />
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
