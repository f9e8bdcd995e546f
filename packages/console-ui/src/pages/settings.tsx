import { useState } from "react";
import { api, unwrap, type Schemas } from "../api";
import { readChains } from "../chains";
import { formatUnits } from "../format";
import { FailureMessage, LoadedView, useAction, useLoad } from "../loading";
import { PageHeading } from "../page-heading";

/** The account's settings: keep_one_unit and its fee ceilings per chain. */
export function SettingsPage() {
  const loaded = useLoad(async () => ({ settings: await unwrap(api.GET("/v1/settings")), chains: await readChains() }), []);
  return (
    <>
      <PageHeading title="Settings" />
      <LoadedView loaded={loaded}>
        {({ settings, chains }) => (
          <>
            <SettingsForm settings={settings} />
            <FeeCeilingsForm settings={settings} chains={chains} />
          </>
        )}
      </LoadedView>
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

/** One field per chain, in wei; an empty field is no ceiling of the account's on that chain. Saved together, as the API replaces the list. */
function FeeCeilingsForm({ settings, chains }: { settings: Schemas["Settings"]; chains: Array<{ chain_id: number; name: string }> }) {
  const fieldsOf = (ceilings: Schemas["Settings"]["fee_ceilings"]) => Object.fromEntries(chains.map(({ chain_id }) => [chain_id, ceilings.find((c) => c.chain_id === chain_id)?.max_fee_per_gas ?? ""]));
  const [saved, setSaved] = useState(settings.fee_ceilings);
  const [fields, setFields] = useState<Record<number, string>>(() => fieldsOf(settings.fee_ceilings));
  const action = useAction();
  const save = async () => {
    const fee_ceilings = chains.flatMap(({ chain_id }) => (fields[chain_id]?.trim() ? [{ chain_id, max_fee_per_gas: fields[chain_id]!.trim() }] : []));
    const answer = await action.run(() => unwrap(api.PATCH("/v1/settings", { body: { fee_ceilings } })));
    if (!answer) return;
    setSaved(answer.fee_ceilings);
    setFields(fieldsOf(answer.fee_ceilings));
  };
  return (
    <form
      aria-labelledby="fee-ceilings-heading"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h2 id="fee-ceilings-heading">Fee ceilings</h2>
      <p className="muted">
        The most your gas wallet offers per gas on a chain, in wei (1 gwei = 1000000000). The platform's ceiling applies where it is lower. While the chain's base fee is above it, sweeps and
        revocations wait queued (reason waiting_for_gas_price) and go on by themselves when the fee falls. Empty: the platform's ceiling only.
      </p>
      {chains.map(({ chain_id, name }) => (
        <p key={chain_id}>
          <label htmlFor={`fee-ceiling-${chain_id}`}>Max fee per gas on {name} (wei)</label>{" "}
          <input id={`fee-ceiling-${chain_id}`} inputMode="numeric" value={fields[chain_id] ?? ""} disabled={action.pending} onChange={(e) => setFields({ ...fields, [chain_id]: e.target.value })} />
        </p>
      ))}
      <button type="submit" disabled={action.pending}>
        Save fee ceilings
      </button>
      <p role="status" data-testid="fee-ceilings-status">
        {action.pending
          ? "Saving…"
          : saved.length === 0
            ? "No fee ceilings of yours."
            : `Fee ceilings: ${saved.map((c) => `${chains.find((chain) => chain.chain_id === c.chain_id)?.name ?? c.chain_id} ${formatUnits(c.max_fee_per_gas, 9)} gwei`).join(", ")}.`}
      </p>
      <FailureMessage failure={action.failure} />
    </form>
  );
}
