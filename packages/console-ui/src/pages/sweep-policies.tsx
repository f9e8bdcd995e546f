import { useState, type FormEvent } from "react";
import { api, unwrap, type Schemas } from "../api";
import { ChainSelect } from "../chain-select";
import { readChains, type ConsoleChain } from "../chains";
import { DataTable } from "../data-table";
import { formatTime, formatUnits, shorten } from "../format";
import { Amount } from "../amount";
import { assetOf } from "../units";
import { FailureMessage, LoadedView, useAction, useLoad } from "../loading";
import { PageHeading } from "../page-heading";

type Policy = Schemas["SweepPolicy"];

async function readPolicies() {
  const [chains, policies, hotWallets] = await Promise.all([readChains(), unwrap(api.GET("/v1/sweep-policies")), unwrap(api.GET("/v1/hot-wallets"))]);
  return { chains, policies: policies.items, hotWallets: hotWallets.hot_wallets };
}

/** The account's sweep policies: the service sweeps deposit addresses by itself, per chain and token, under their rules. */
export function SweepPoliciesPage() {
  const loaded = useLoad(readPolicies, []);
  return (
    <>
      <PageHeading title="Sweep policies" />
      <p>
        With a policy on, the service sweeps by itself every deposit address of the inventory whose confirmed deposits of the token bring its balance to the minimum: the whole
        balance, to the policy&apos;s hot wallet, in the schedule&apos;s windows. A sweep that would break its gas price or cost rule waits queued and says why.
      </p>
      <LoadedView loaded={loaded}>
        {({ chains, policies, hotWallets }) => (
          <>
            <PolicyTable policies={policies} chains={chains} />
            <PolicyForm chains={chains} hotWallets={hotWallets} onSaved={loaded.reload} />
          </>
        )}
      </LoadedView>
    </>
  );
}

function PolicyTable({ policies, chains }: { policies: Policy[]; chains: ConsoleChain[] }) {
  if (policies.length === 0) return <p>No sweep policies yet.</p>;
  return (
    <DataTable
      caption="Sweep policies, by chain and token"
      testId="sweep-policies"
      rows={policies}
      rowKey={(p) => `${p.chain_id}:${p.token}`}
      columns={[
        { header: "Token", rowHeader: true, cell: (p) => p.token },
        { header: "Chain", cell: (p) => p.chain_id },
        { header: "State", cell: (p) => <span className={`status status-${p.enabled ? "active" : "failed"}`}>{p.enabled ? "on" : "off"}</span> },
        { header: "Hot wallet", cell: (p) => <code title={p.hot_wallet}>{shorten(p.hot_wallet)}</code> },
        { header: "Minimum", className: "number", cell: (p) => <Amount value={p.min_balance} asset={assetOf(chains, p.chain_id, p.token)} /> },
        { header: "Max gas price", className: "number", cell: (p) => (p.max_fee_per_gas === undefined ? "" : <span title={`${p.max_fee_per_gas} wei`}>{formatUnits(p.max_fee_per_gas, 9)} gwei</span>) },
        { header: "Max cost", className: "number", cell: (p) => (p.max_cost_bps === undefined ? "" : `${(p.max_cost_bps / 100).toFixed(2)}%`) },
        { header: "Schedule", cell: (p) => `${p.schedule}${p.at ? ` at ${p.at} UTC` : ""}${p.next_run_at ? `, next ${formatTime(p.next_run_at)}` : ""}` },
      ]}
    />
  );
}

/** One policy, set whole (the API replaces the chain and token's): empty fields are no rule. */
function PolicyForm({ chains, hotWallets, onSaved }: { chains: { chain_id: number; name: string }[]; hotWallets: Schemas["HotWallet"][]; onSaved: () => void }) {
  const [chainId, setChainId] = useState(String(chains[0]?.chain_id ?? ""));
  const [fields, setFields] = useState({ token: "", hotWallet: "", minBalance: "", maxFeePerGas: "", maxCostBps: "", tokenValueWei: "", schedule: "asap", at: "" });
  const [enabled, setEnabled] = useState(true);
  const [saved, setSaved] = useState("");
  const action = useAction();
  const set = (name: keyof typeof fields) => (value: string) => setFields({ ...fields, [name]: value });
  const wallets = hotWallets.filter((h) => String(h.chain_id) === chainId);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const optional = (value: string) => (value.trim() === "" ? undefined : value.trim());
    const body: Schemas["SweepPolicyRequest"] = {
      chain_id: Number(chainId),
      token: fields.token.trim(),
      hot_wallet: fields.hotWallet || (wallets[0]?.address ?? ""),
      enabled,
      min_balance: optional(fields.minBalance),
      max_fee_per_gas: optional(fields.maxFeePerGas),
      max_cost_bps: optional(fields.maxCostBps) === undefined ? undefined : Number(fields.maxCostBps),
      token_value_wei: optional(fields.tokenValueWei),
      schedule: fields.schedule as Schemas["SweepPolicyRequest"]["schedule"],
      at: optional(fields.at),
    };
    const policy = await action.run(() => unwrap(api.PUT("/v1/sweep-policies", { body })));
    if (!policy) return;
    setSaved(`The ${policy.token} policy on chain ${policy.chain_id} is ${policy.enabled ? "on" : "off"}.`);
    onSaved();
  };
  const text = (id: keyof typeof fields, label: string, help?: string) => (
    <div className="field">
      <label htmlFor={`policy-${id}`}>{label}</label>
      <input id={`policy-${id}`} value={fields[id]} onChange={(e) => set(id)(e.target.value)} aria-describedby={help ? `policy-${id}-help` : undefined} />
      {help && (
        <p id={`policy-${id}-help`} className="muted">
          {help}
        </p>
      )}
    </div>
  );
  return (
    <form onSubmit={(event) => void save(event)} aria-labelledby="policy-form-heading">
      <h2 id="policy-form-heading">Set a policy</h2>
      <ChainSelect id="policy-chain" chains={chains} value={chainId} onChange={setChainId} />
      {text("token", "Token", "A listed ticker or contract address, or native.")}
      <div className="field">
        <label htmlFor="policy-hot-wallet">Hot wallet</label>
        <select id="policy-hot-wallet" value={fields.hotWallet} onChange={(e) => set("hotWallet")(e.target.value)}>
          {wallets.map((h) => (
            <option key={h.address} value={h.address}>
              {h.address} ({h.status})
            </option>
          ))}
        </select>
      </div>
      {text("minBalance", "Minimum balance to sweep (smallest units)", "Empty: any balance.")}
      {text("maxFeePerGas", "Max gas price (wei per gas)", "Its sweeps wait while the base fee and tip are above it.")}
      {text("maxCostBps", "Max cost (basis points of the amount)", "Its sweeps wait while their gas and fee cost more than this share of what they move; 100 = 1%.")}
      {text("tokenValueWei", "Token value (wei per whole token)", "For the cost rule on a token: the service has no price feed.")}
      <div className="field">
        <label htmlFor="policy-schedule">Schedule</label>
        <select id="policy-schedule" value={fields.schedule} onChange={(e) => set("schedule")(e.target.value)}>
          <option value="asap">As soon as deposits are confirmed</option>
          <option value="hourly">Hourly</option>
          <option value="daily">Daily</option>
        </select>
      </div>
      {fields.schedule !== "asap" && text("at", "At (UTC)", fields.schedule === "hourly" ? ":MM, the minute of each hour" : "HH:MM")}
      <div className="checkbox">
        <input id="policy-enabled" type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        <label htmlFor="policy-enabled">On</label>
      </div>
      <FailureMessage failure={action.failure} />
      <button type="submit" disabled={action.pending}>
        Save policy
      </button>
      <p role="status">{action.pending ? "Saving…" : saved}</p>
    </form>
  );
}
