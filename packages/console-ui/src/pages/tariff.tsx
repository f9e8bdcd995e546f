import { api, unwrap } from "../api";
import { DataTable } from "../data-table";
import { formatGas } from "../format";
import { LoadedView, useLoad } from "../loading";
import { PageHeading } from "../page-heading";

/** The account's tariff per chain: the token rate, the native markup, and the classic benchmarks fees are counted against. */
export function TariffPage() {
  const loaded = useLoad(() => unwrap(api.GET("/v1/tariff")), []);
  return (
    <>
      <PageHeading title="Tariff" />
      <p>
        Token sweep fee = max(0, rate × classic benchmark − the sweep's gas). Native coin sweep fee = a markup on the sweep's gas, never more than the sweep saves against a plain 21,000-gas
        transfer. Both are counted in gas at the batch's gas price.
      </p>
      <LoadedView loaded={loaded}>
        {({ chains }) => (
          <>
            {chains.map((chain) => (
              <section key={chain.chain_id} aria-labelledby={`tariff-${chain.chain_id}`} className="chain">
                <h2 id={`tariff-${chain.chain_id}`}>
                  {chain.name} <span className="muted">(chain {chain.chain_id})</span>
                </h2>
                <p>
                  Token rate: <strong>{chain.rate}%</strong> of the classic benchmark ({chain.rate_bps} bps). Native coin markup: <strong>{chain.native_markup}%</strong> ({chain.native_markup_bps}{" "}
                  bps).
                </p>
                {chain.classic_gas ? (
                  <DataTable
                    caption={`Classic benchmarks on ${chain.name}, in gas`}
                    showCaption
                    rows={Object.entries(chain.classic_gas)}
                    rowKey={([asset]) => asset}
                    columns={[
                      { header: "Asset", rowHeader: true, cell: ([asset]) => asset },
                      { header: "New address", className: "number", cell: ([, gas]) => formatGas(gas.new) },
                      { header: "Existing address", className: "number", cell: ([, gas]) => formatGas(gas.existing) },
                    ]}
                  />
                ) : (
                  <p>No benchmarks on this chain.</p>
                )}
                {chain.extra_gas && (
                  <p>
                    A first sweep of an address bears {formatGas(chain.extra_gas.delegation)} gas more for its delegation, and {formatGas(chain.extra_gas.account)} more when the address's account is
                    created too.
                  </p>
                )}
              </section>
            ))}
          </>
        )}
      </LoadedView>
    </>
  );
}
