import { useState } from "react";
import { api, unwrap, type Schemas } from "../api";
import { FailureMessage, LoadedView, useAction, useLoad } from "../loading";
import { PageHeading } from "../page-heading";

/** The account's settings: keep_one_unit. */
export function SettingsPage() {
  const loaded = useLoad(() => unwrap(api.GET("/v1/settings")), []);
  return (
    <>
      <PageHeading title="Settings" />
      <LoadedView loaded={loaded}>{(settings) => <SettingsForm settings={settings} />}</LoadedView>
    </>
  );
}

function SettingsForm({ settings }: { settings: Schemas["Settings"] }) {
  const [saved, setSaved] = useState(settings);
  // The box follows the click at once; a refused change puts it back.
  const [checked, setChecked] = useState(settings.keep_one_unit);
  const action = useAction();
  const change = async (keep_one_unit: boolean) => {
    setChecked(keep_one_unit);
    const answer = await action.run(() => unwrap(api.PATCH("/v1/settings", { body: { keep_one_unit } })));
    setSaved(answer ?? saved);
    setChecked((answer ?? saved).keep_one_unit);
  };
  return (
    <form onSubmit={(event) => event.preventDefault()}>
      <div className="checkbox">
        <input id="keep-one-unit" type="checkbox" checked={checked} disabled={action.pending} onChange={(e) => void change(e.target.checked)} aria-describedby="keep-one-unit-help" />
        <label htmlFor="keep-one-unit">Keep one unit on deposit addresses</label>
      </div>
      <p id="keep-one-unit-help" className="muted">
        Token sweeps leave 1 smallest unit on the deposit address, which makes the user's next deposit cheaper. A sweep request can override it. Off by default.
      </p>
      <p role="status">{action.pending ? "Saving…" : `keep_one_unit is ${saved.keep_one_unit ? "on" : "off"}.`}</p>
      <FailureMessage failure={action.failure} />
    </form>
  );
}
