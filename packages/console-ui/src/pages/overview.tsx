import { useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { api, unwrap, type Schemas } from "../api";
import { ApiFailure } from "../api-error";
import { DataTable } from "../data-table";
import { formatUnits } from "../format";
import { LoadedView, useLoad } from "../loading";
import { PageHeading } from "../page-heading";
import { coinTick, dayTick, quietSeries, usageSeries } from "../usage-series";
import { Amount } from "../amount";
import { NATIVE_DECIMALS } from "../units";

/** Room for the axes' tick labels inside the chart, so none is clipped at the edges. */
const CHART_MARGIN = { top: 8, right: 16, bottom: 4, left: 4 };

type ChainBalance = Schemas["Balance"]["chains"][number];

const RANGES = [30, 90] as const;

async function readOverview(days: number) {
  const [balance, usage, webhook] = await Promise.all([
    unwrap(api.GET("/v1/balance")),
    unwrap(api.GET("/v1/usage", { params: { query: { days } } })),
    // No webhook set is not a failure here: there are just no alerts.
    unwrap(api.GET("/v1/webhook")).catch((failure: unknown) => {
      if (failure instanceof ApiFailure && failure.code === "not_found") return undefined;
      throw failure;
    }),
  ]);
  return { days, balance, usage, webhook };
}

/** Money per chain, low-balance alerts, and the last 30 or 90 days of usage drawn per chain. */
export function OverviewPage() {
  const [days, setDays] = useState<(typeof RANGES)[number]>(30);
  const loaded = useLoad(() => readOverview(days), [days]);
  return (
    <>
      <PageHeading title="Overview" />
      <LoadedView loaded={loaded}>
        {({ days: shownDays, balance, usage, webhook }) => (
          <>
            <p>
              Gas wallet (the same on every chain): <code>{balance.gas_wallet}</code>
            </p>
            <fieldset className="range">
              <legend>Usage period</legend>
              {RANGES.map((range) => (
                <label key={range}>
                  <input type="radio" name="days" value={range} checked={days === range} onChange={() => setDays(range)} /> Last {range} days
                </label>
              ))}
            </fieldset>
            {balance.chains.map((chain) => (
              <ChainOverview
                key={chain.chain_id}
                chain={chain}
                days={shownDays}
                usage={usage.days}
                alert={webhook?.low_balance.find((alert) => alert.chain_id === chain.chain_id)}
              />
            ))}
          </>
        )}
      </LoadedView>
    </>
  );
}

function ChainOverview({ chain, days, usage, alert }: { chain: ChainBalance; days: number; usage: Schemas["UsageDay"][]; alert: Schemas["Webhook"]["low_balance"][number] | undefined }) {
  const points = usageSeries(usage, chain.chain_id);
  const quiet = quietSeries(usage, chain.chain_id);
  const nativeAsset = { symbol: chain.native, decimals: NATIVE_DECIMALS };
  const today = usage.filter((day) => day.chain_id === chain.chain_id).at(-1);
  const headingId = `chain-${chain.chain_id}`;
  const coin = (wei: string) => `${formatUnits(wei)} ${chain.native}`;
  return (
    <section aria-labelledby={headingId} className="chain" data-testid={`chain-${chain.chain_id}`}>
      <h2 id={headingId}>
        {chain.name} <span className="muted">(chain {chain.chain_id})</span>
      </h2>
      {chain.error === "chain_unavailable" && (
        <p className="warning" role="status">
          The chain's node did not answer (chain_unavailable): the balance and what is available cannot be read now. Fees are from the ledger.
        </p>
      )}
      {alert?.low && (
        <p className="warning" role="status" data-testid={`low-balance-${chain.chain_id}`}>
          Low balance: the gas wallet is below the alert threshold of {coin(alert.threshold)}. Top it up so sweeps keep going.
        </p>
      )}
      <dl className="figures">
        <div>
          <dt>Balance</dt>
          <dd>{chain.balance === undefined ? "unavailable" : coin(chain.balance)}</dd>
        </div>
        <div>
          <dt>Fees due</dt>
          <dd>{coin(chain.fees_due)}</dd>
        </div>
        <div>
          <dt>Available for gas</dt>
          <dd>{chain.available === undefined ? "unavailable" : coin(chain.available)}</dd>
        </div>
        <div>
          <dt>Low-balance alert</dt>
          <dd>{alert ? `below ${coin(alert.threshold)}` : "none"}</dd>
        </div>
      </dl>
      {today && (
        <>
          <h3>Today ({today.date})</h3>
          <ul className="today" data-testid={`usage-today-${chain.chain_id}`}>
            <li data-testid="today-done">{today.sweeps_done} sweeps done</li>
            <li data-testid="today-failed">{today.sweeps_failed} failed</li>
            <li data-testid="today-rejected">{today.sweeps_rejected} rejected</li>
            <li data-testid="today-gas">gas spent {coin(today.gas_spent)}</li>
            <li data-testid="today-fees">fees {coin(today.fees)}</li>
          </ul>
        </>
      )}
      <figure className="chart" data-testid={`sweeps-chart-${chain.chain_id}`}>
        <figcaption>Sweeps per day, last {days} days: done, failed and rejected</figcaption>
        {quiet ? (
          <p className="no-activity" data-testid="no-activity">
            No activity yet in the last {days} days.
          </p>
        ) : (
        <div className="chart-area" role="img" aria-label={`Bar chart of sweeps per day on ${chain.name}; the figures are in the table below`}>
          <ResponsiveContainer width="100%" height={220}>
            <BarChart data={points} accessibilityLayer={false} margin={CHART_MARGIN}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="date" tickFormatter={dayTick} minTickGap={12} />
              <YAxis allowDecimals={false} width={48} />
              <Tooltip />
              <Legend />
              <Bar dataKey="done" name="done" stackId="sweeps" fill="#1a7f37" isAnimationActive={false} />
              <Bar dataKey="failed" name="failed" stackId="sweeps" fill="#cf222e" isAnimationActive={false} />
              <Bar dataKey="rejected" name="rejected" stackId="sweeps" fill="#9a6700" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
        )}
      </figure>
      <figure className="chart" data-testid={`money-chart-${chain.chain_id}`}>
        <figcaption>
          Gas spent and fees per day, in {chain.native}, last {days} days
        </figcaption>
        {quiet ? (
          <p className="no-activity">No activity yet in the last {days} days.</p>
        ) : (
        <div className="chart-area" role="img" aria-label={`Line chart of gas spent and fees per day on ${chain.name}; the figures are in the table below`}>
          <ResponsiveContainer width="100%" height={220}>
            <LineChart data={points} accessibilityLayer={false} margin={CHART_MARGIN}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="date" tickFormatter={dayTick} minTickGap={12} />
              <YAxis width={88} tickFormatter={coinTick} />
              <Tooltip />
              <Legend />
              <Line dataKey="gas" name={`gas spent (${chain.native})`} stroke="#0550ae" dot={false} isAnimationActive={false} />
              <Line dataKey="fees" name={`fees (${chain.native})`} stroke="#8250df" dot={false} isAnimationActive={false} />
            </LineChart>
          </ResponsiveContainer>
        </div>
        )}
      </figure>
      <details>
        <summary>Figures by day ({chain.name})</summary>
        <DataTable
          caption={`Usage per UTC day on ${chain.name}; gas and fees in ${chain.native} (hover for wei)`}
          showCaption
          testId={`usage-table-${chain.chain_id}`}
          rows={usage.filter((day) => day.chain_id === chain.chain_id)}
          rowKey={(day) => day.date}
          rowData={(day) => ({ "data-date": day.date })}
          columns={[
            { header: "Day", rowHeader: true, cell: (day) => day.date },
            { header: "Done", cell: (day) => day.sweeps_done },
            { header: "Failed", cell: (day) => day.sweeps_failed },
            { header: "Rejected", cell: (day) => day.sweeps_rejected },
            { header: "Revocations", cell: (day) => day.revocations_done },
            { header: "Gas spent", className: "number", cell: (day) => <Amount value={day.gas_spent} asset={nativeAsset} /> },
            { header: "Fees", className: "number", cell: (day) => <Amount value={day.fees} asset={nativeAsset} /> },
          ]}
        />
      </details>
    </section>
  );
}
