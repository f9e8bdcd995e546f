import { useState } from "react";
import { consoleCall, type ConsoleKey, type CreatedKey } from "../api";
import { DataTable } from "../data-table";
import { formatTime } from "../format";
import { FailureMessage, LoadedView, useAction, useLoad } from "../loading";
import { PageHeading } from "../page-heading";

/** API keys: a new key is shown once (with a copy button) and kept nowhere in the page after; the list shows last use; revoke. */
export function KeysPage() {
  const loaded = useLoad(() => consoleCall<{ items: ConsoleKey[] }>("GET", "/keys"), []);
  const [created, setCreated] = useState<CreatedKey | undefined>(undefined);
  const [copied, setCopied] = useState(false);
  const action = useAction();

  const create = async () => {
    setCopied(false);
    const key = await action.run(() => consoleCall<CreatedKey>("POST", "/keys"));
    if (key) {
      setCreated(key);
      loaded.reload();
    }
  };
  const revoke = async (key: ConsoleKey) => {
    if (!window.confirm(`Revoke ${key.prefix}? Requests with it will get 401 unauthorized at once.`)) return;
    if (await action.run(() => consoleCall<ConsoleKey>("POST", `/keys/${encodeURIComponent(key.id)}/revoke`))) loaded.reload();
  };
  const copy = async (key: string) => {
    await navigator.clipboard.writeText(key).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };

  return (
    <>
      <PageHeading title="API keys" />
      <p>Keys authenticate your servers to the API (Authorization: Bearer …). The whole key is shown once, when it is created.</p>
      <button type="button" onClick={() => void create()} disabled={action.pending}>
        Create a key
      </button>
      <FailureMessage failure={action.failure} />
      {created && (
        <section className="new-key" aria-labelledby="new-key-heading">
          <h2 id="new-key-heading">Your new key</h2>
          <p>Copy it now and keep it in your secrets store: it is not shown again.</p>
          <p>
            <code data-testid="new-key">{created.key}</code>
          </p>
          <button type="button" onClick={() => void copy(created.key)}>
            Copy the key
          </button>{" "}
          <button type="button" className="secondary" onClick={() => setCreated(undefined)}>
            Done, hide it
          </button>
          <p role="status">{copied ? "Copied to the clipboard." : ""}</p>
        </section>
      )}
      <h2>Keys</h2>
      <LoadedView loaded={loaded}>
        {({ items }) =>
          items.length === 0 ? (
            <p>No keys yet.</p>
          ) : (
            <DataTable
              caption="API keys of this account"
              testId="keys"
              rows={items}
              rowKey={(key) => key.id}
              rowData={(key) => ({ "data-key-id": key.id })}
              columns={[
                { header: "Key", rowHeader: true, cell: (key) => <code>{key.prefix}</code> },
                { header: "Created", cell: (key) => formatTime(key.created_at) },
                { header: "Last used", testId: "last-used", cell: (key) => (key.last_used_at ? formatTime(key.last_used_at) : "never") },
                { header: "State", cell: (key) => (key.revoked_at ? `revoked ${formatTime(key.revoked_at)}` : "active") },
                {
                  header: "Action",
                  cell: (key) =>
                    !key.revoked_at && (
                      <button type="button" className="danger" onClick={() => void revoke(key)} aria-label={`Revoke ${key.prefix}`}>
                        Revoke
                      </button>
                    ),
                },
              ]}
            />
          )
        }
      </LoadedView>
    </>
  );
}
