import { useEffect, useState, type FormEvent } from "react";
import { api, unwrap } from "../api";
import { ChainSelect } from "../chain-select";
import { DataTable } from "../data-table";
import { readChains } from "../chains";
import { formatTime } from "../format";
import { FailureMessage, LoadedView, useAction, useLoad } from "../loading";
import { PageHeading } from "../page-heading";

const PENDING_POLL_MS = 1_000;

async function readHotWallets() {
  const [chains, list] = await Promise.all([readChains(), unwrap(api.GET("/v1/hot-wallets"))]);
  return { chains, hotWallets: list.hot_wallets };
}

/** Hot wallets: register one per chain, and follow its delegate's deployment (status, delegate, transaction). */
export function HotWalletsPage() {
  const loaded = useLoad(readHotWallets, []);
  const [chainId, setChainId] = useState("");
  const [address, setAddress] = useState("");
  const action = useAction();
  const { reload } = loaded;
  const pending = loaded.data?.hotWallets.some((wallet) => wallet.status === "pending") ?? false;

  // A deployment takes a few blocks: the list is read again until none is pending.
  useEffect(() => {
    if (!pending) return;
    const timer = window.setTimeout(reload, PENDING_POLL_MS);
    return () => window.clearTimeout(timer);
  }, [pending, loaded.data, reload]);

  const register = async (event: FormEvent) => {
    event.preventDefault();
    const chain = chainId || String(loaded.data?.chains[0]?.chain_id ?? "");
    const done = await action.run(() => unwrap(api.POST("/v1/hot-wallets", { body: { chain_id: Number(chain), address: address.trim() } })));
    if (done) {
      setAddress("");
      reload();
    }
  };

  return (
    <>
      <PageHeading title="Hot wallets" />
      <p>A hot wallet receives the swept funds. Registering it deploys its delegate contract on the chain; deposit addresses sign their authorization for that delegate.</p>
      <LoadedView loaded={loaded}>
        {({ chains, hotWallets }) => (
          <>
            <form onSubmit={(event) => void register(event)} className="inline-form" aria-labelledby="register-heading">
              <h2 id="register-heading">Register a hot wallet</h2>
              <ChainSelect id="hot-wallet-chain" chains={chains} value={chainId || String(chains[0]?.chain_id ?? "")} onChange={setChainId} />
              <div className="field">
                <label htmlFor="hot-wallet-address">Address</label>
                <input id="hot-wallet-address" required pattern="0x[0-9a-fA-F]{40}" placeholder="0x…" value={address} onChange={(e) => setAddress(e.target.value)} />
              </div>
              <button type="submit" disabled={action.pending}>
                Register
              </button>
              <FailureMessage failure={action.failure} />
            </form>
            <h2>Registered</h2>
            {hotWallets.length === 0 ? (
              <p>No hot wallets yet.</p>
            ) : (
              <DataTable
                caption="Hot wallets of this account"
                testId="hot-wallets"
                rows={hotWallets}
                rowKey={(wallet) => `${wallet.chain_id}-${wallet.address}`}
                rowData={(wallet) => ({ "data-address": wallet.address })}
                columns={[
                  { header: "Chain", cell: (wallet) => chains.find((chain) => chain.chain_id === wallet.chain_id)?.name ?? wallet.chain_id },
                  { header: "Address", rowHeader: true, cell: (wallet) => <code>{wallet.address}</code> },
                  {
                    header: "Status",
                    testId: "hot-wallet-status",
                    cell: (wallet) => (
                      <>
                        <span className={`status status-${wallet.status}`}>{wallet.status}</span>
                        {wallet.error && ` (${wallet.error}${wallet.error === "insufficient_gas_balance" ? ": top up the gas wallet and register again" : ""})`}
                      </>
                    ),
                  },
                  { header: "Delegate", cell: (wallet) => <code>{wallet.delegate}</code> },
                  { header: "Deployment transaction", cell: (wallet) => (wallet.tx_hash ? <code className="hash">{wallet.tx_hash}</code> : "—") },
                  { header: "Registered", cell: (wallet) => formatTime(wallet.created_at) },
                ]}
              />
            )}
          </>
        )}
      </LoadedView>
    </>
  );
}
