import { useState, type FormEvent } from "react";
import { api, unwrap, type Schemas } from "../api";
import { ApiFailure } from "../api-error";
import { readChains, type ConsoleChain } from "../chains";
import { DataTable } from "../data-table";
import { StatusText } from "../status-text";
import { formatTime, formatUnits, parseUnits } from "../format";
import { NATIVE_DECIMALS } from "../units";
import { FailureMessage, LoadedView, useAction, useLoad } from "../loading";
import { PageHeading } from "../page-heading";

async function readWebhook() {
  const [chains, webhook, deliveries] = await Promise.all([
    readChains(),
    unwrap(api.GET("/v1/webhook")).catch((failure: unknown) => {
      if (failure instanceof ApiFailure && failure.code === "not_found") return undefined;
      throw failure;
    }),
    unwrap(api.GET("/v1/webhook/deliveries", { params: { query: { limit: 50 } } })),
  ]);
  return { chains, webhook, deliveries: deliveries.items };
}

/** The webhook: its URL and low-balance thresholds, the secret on demand, a test event, and the delivery log with Resend. */
export function WebhookPage() {
  const loaded = useLoad(readWebhook, []);
  return (
    <>
      <PageHeading title="Webhook" />
      <LoadedView loaded={loaded}>
        {({ chains, webhook, deliveries }) => (
          <>
            <WebhookForm key={webhook ? JSON.stringify(webhook) : "none"} chains={chains} webhook={webhook} onSaved={loaded.reload} />
            {webhook && <Secret secret={webhook.secret} />}
            <Deliveries deliveries={deliveries} canSend={webhook !== undefined} onChange={loaded.reload} />
          </>
        )}
      </LoadedView>
    </>
  );
}

function WebhookForm({ chains, webhook, onSaved }: { chains: ConsoleChain[]; webhook: Schemas["Webhook"] | undefined; onSaved: () => void }) {
  const [url, setUrl] = useState(webhook?.url ?? "");
  // Typed in coins; the API takes wei.
  const [thresholds, setThresholds] = useState<Record<number, string>>(() =>
    Object.fromEntries((webhook?.low_balance ?? []).map((alert) => [alert.chain_id, formatUnits(alert.threshold, NATIVE_DECIMALS)])),
  );
  const [typo, setTypo] = useState<string | undefined>(undefined);
  const action = useAction();
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const typed = Object.entries(thresholds).filter(([, threshold]) => threshold.trim() !== "");
    const wrong = typed.find(([, threshold]) => parseUnits(threshold, NATIVE_DECIMALS) === null);
    setTypo(wrong && `The alert for chain ${wrong[0]} must be an amount of coins such as 0.05, with at most 18 decimals.`);
    if (wrong) return;
    const low_balance = typed.map(([chain_id, threshold]) => ({ chain_id: Number(chain_id), threshold: parseUnits(threshold, NATIVE_DECIMALS)! }));
    if (await action.run(() => unwrap(api.PUT("/v1/webhook", { body: { url: url.trim(), low_balance } })))) onSaved();
  };
  const remove = async () => {
    if (!window.confirm("Delete the webhook? Undelivered events are dropped, and a new webhook gets a new secret.")) return;
    const deleted = await action.run(async () => {
      await unwrap(api.DELETE("/v1/webhook"));
      return true;
    });
    if (deleted) onSaved();
  };
  return (
    <form onSubmit={(event) => void save(event)} aria-labelledby="webhook-settings">
      <h2 id="webhook-settings">Where events go</h2>
      <div className="field">
        <label htmlFor="webhook-url">URL</label>
        <input id="webhook-url" type="url" required placeholder="https://hooks.example.com/sweep" value={url} onChange={(e) => setUrl(e.target.value)} aria-describedby="webhook-url-help" />
        <p id="webhook-url-help" className="muted">
          A public https address without credentials; redirects are not followed.
        </p>
      </div>
      <fieldset>
        <legend>Low-balance alerts, in each chain&apos;s coin (empty for none)</legend>
        {chains.map((chain) => {
          const alert = webhook?.low_balance.find((entry) => entry.chain_id === chain.chain_id);
          return (
            <div className="field" key={chain.chain_id}>
              <label htmlFor={`threshold-${chain.chain_id}`}>
                {chain.name} ({chain.chain_id}), {chain.native}
                {alert?.low ? " — low now" : ""}
              </label>
              <input
                id={`threshold-${chain.chain_id}`}
                inputMode="decimal"
                placeholder="0.05"
                title={alert ? `${alert.threshold} wei` : undefined}
                value={thresholds[chain.chain_id] ?? ""}
                onChange={(e) => setThresholds({ ...thresholds, [chain.chain_id]: e.target.value })}
              />
            </div>
          );
        })}
      </fieldset>
      {typo && (
        <p className="failure" role="alert">
          {typo}
        </p>
      )}
      <FailureMessage failure={action.failure} />
      <button type="submit" disabled={action.pending}>
        Save webhook
      </button>{" "}
      {webhook && (
        <button type="button" className="danger" onClick={() => void remove()} disabled={action.pending}>
          Delete webhook
        </button>
      )}
    </form>
  );
}

/** The signing secret stays hidden until asked for: it signs every delivery. */
function Secret({ secret }: { secret: string }) {
  const [shown, setShown] = useState(false);
  return (
    <section aria-labelledby="secret-heading">
      <h2 id="secret-heading">Signing secret</h2>
      <p>
        <code data-testid="webhook-secret">{shown ? secret : "whsec_••••••••••••••••"}</code>{" "}
        <button type="button" className="secondary" onClick={() => setShown(!shown)} aria-pressed={shown}>
          {shown ? "Hide" : "Show"}
        </button>
      </p>
    </section>
  );
}

function Deliveries({ deliveries, canSend, onChange }: { deliveries: Schemas["WebhookDelivery"][]; canSend: boolean; onChange: () => void }) {
  const action = useAction();
  const [notice, setNotice] = useState("");
  const test = async () => {
    const queued = await action.run(() => unwrap(api.POST("/v1/webhook/test")));
    if (queued) {
      setNotice(`Test event ${queued.id} queued.`);
      onChange();
    }
  };
  const resend = async (delivery: Schemas["WebhookDelivery"]) => {
    const sent = await action.run(() => unwrap(api.POST("/v1/webhook/deliveries/{id}/resend", { params: { path: { id: delivery.id } } })));
    if (sent) {
      setNotice(`${delivery.event} ${delivery.id} queued again.`);
      onChange();
    }
  };
  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Deliveries</h2>
      <button type="button" onClick={() => void test()} disabled={!canSend || action.pending}>
        Send a test event
      </button>{" "}
      <button type="button" className="secondary" onClick={onChange}>
        Refresh
      </button>
      <p role="status" data-testid="webhook-notice">
        {notice}
      </p>
      <FailureMessage failure={action.failure} />
      {deliveries.length === 0 ? (
        <p>No deliveries yet.</p>
      ) : (
        <DataTable
          caption="Webhook deliveries, newest first"
          testId="deliveries"
          rows={deliveries}
          rowKey={(delivery) => delivery.id}
          rowData={(delivery) => ({ "data-event-id": delivery.id, "data-status": delivery.status })}
          columns={[
            { header: "Event", rowHeader: true, cell: (delivery) => delivery.event },
            { header: "Event id", cell: (delivery) => <code>{delivery.id}</code> },
            { header: "Status", cell: (delivery) => <StatusText status={delivery.status} /> },
            { header: "Attempts", className: "number", cell: (delivery) => delivery.attempts },
            { header: "Last outcome", cell: (delivery) => delivery.last_error ?? (delivery.last_status_code === null ? "—" : `HTTP ${delivery.last_status_code}`) },
            { header: "Created", cell: (delivery) => formatTime(delivery.created_at) },
            {
              header: "Delivered / next attempt",
              cell: (delivery) => (delivery.delivered_at ? formatTime(delivery.delivered_at) : delivery.next_attempt_at ? `next ${formatTime(delivery.next_attempt_at)}` : "—"),
            },
            {
              header: "Action",
              cell: (delivery) =>
                delivery.status !== "pending" &&
                canSend && (
                  <button type="button" className="secondary" onClick={() => void resend(delivery)} disabled={action.pending} aria-label={`Resend ${delivery.event} ${delivery.id}`}>
                    Resend
                  </button>
                ),
            },
          ]}
        />
      )}
    </section>
  );
}
