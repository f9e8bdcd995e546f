import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { api, unwrap } from "../api";
import { DataTable } from "../data-table";
import { DetailList } from "../detail-list";
import { formatTime } from "../format";
import { PAGE_SIZE } from "../list-api-query";
import { ListResults, useListQuery } from "../list-query";
import { LoadedView, useLoad } from "../loading";
import { PageHeading } from "../page-heading";

/**
 * The request log: one request by the X-Request-Id its answer carried (pasted, or linked as
 * ?request_id=), and the account's recent requests with cursor paging.
 */
export function RequestsPage() {
  const query = useListQuery(["request_id"]);
  const requestId = query.filters.request_id ?? "";
  const found = useLoad(() => (requestId ? unwrap(api.GET("/v1/requests/{request_id}", { params: { path: { request_id: requestId } } })) : Promise.resolve(null)), [requestId]);
  const recent = useLoad(() => unwrap(api.GET("/v1/requests", { params: { query: { limit: PAGE_SIZE, cursor: query.cursor } } })), [query.cursor]);
  return (
    <>
      <PageHeading title="Requests" />
      <p>
        Every answer of the API carries its request id in the <code>X-Request-Id</code> header (an SDK error has it as <code>requestId</code>). The service keeps what each request of the
        account was and how it was answered for 30 days, never its body, headers or query string.
      </p>
      <RequestLookUp key={requestId} requestId={requestId} onLookUp={(id) => query.apply({ request_id: id })} />
      <LoadedView loaded={found}>
        {(request) =>
          request && (
            <DetailList
              testId="request-detail"
              rows={[
                ["request_id", <code key="id">{request.request_id}</code>],
                ["method", request.method],
                ["route", <code key="route">{request.route}</code>],
                ["status", String(request.status)],
                ["error_code", request.error_code && <code key="code">{request.error_code}</code>],
                ["created_at", formatTime(request.created_at)],
                ["duration", `${request.duration_ms} ms`],
              ]}
            />
          )
        }
      </LoadedView>
      <h2>Recent requests</h2>
      <LoadedView loaded={recent}>
        {(page) => (
          <ListResults page={page} query={query} empty="No requests in the last 30 days.">
            <DataTable
              caption="Requests, newest first"
              testId="requests"
              rows={page.items}
              rowKey={(request) => `${request.request_id} ${request.created_at}`}
              columns={[
                {
                  header: "Request id",
                  rowHeader: true,
                  cell: (request) => (
                    <Link to={`?request_id=${encodeURIComponent(request.request_id)}`}>
                      <code>{request.request_id}</code>
                    </Link>
                  ),
                },
                { header: "Time", cell: (request) => formatTime(request.created_at) },
                { header: "Method", cell: (request) => request.method },
                { header: "Route", cell: (request) => <code>{request.route}</code> },
                { header: "Status", className: "number", cell: (request) => request.status },
                { header: "Error code", cell: (request) => request.error_code ?? "" },
                { header: "Duration", className: "number", cell: (request) => `${request.duration_ms} ms` },
              ]}
            />
          </ListResults>
        )}
      </LoadedView>
    </>
  );
}

function RequestLookUp({ requestId, onLookUp }: { requestId: string; onLookUp: (requestId: string) => void }) {
  const [text, setText] = useState(requestId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim()) onLookUp(text.trim());
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Look up a request">
      <div className="field">
        <label htmlFor="request-id">Request id</label>
        <input id="request-id" value={text} onChange={(e) => setText(e.target.value)} placeholder="req_…" aria-describedby="request-id-help" />
        <p id="request-id-help" className="muted">
          The <code>X-Request-Id</code> of an answer, yours or the service&apos;s.
        </p>
      </div>
      <button type="submit">Look up</button>
    </form>
  );
}
