import type { paths } from "@sweep/client/src/generated/openapi";
import { api, unwrap } from "../api";
import { DataTable } from "../data-table";
import { formatTime, shorten } from "../format";
import { FilteredList, useListPage } from "../list-query";
import { PageHeading } from "../page-heading";
import { Amount } from "../amount";
import { assetOf, type Asset } from "../units";

const DELEGATIONS = ["unknown", "authorized", "delegated", "revoked", "compromised"];
type DepositAddressQuery = NonNullable<paths["/v1/deposit-addresses"]["get"]["parameters"]["query"]>;

/** The deposit-address inventory with the API's filters (chain, delegation, address) and cursor paging. */
export function DepositAddressesPage() {
  const list = useListPage(["chain_id", "delegation", "address"], (params) => unwrap(api.GET("/v1/deposit-addresses", { params: { query: params as DepositAddressQuery } })));
  return (
    <>
      <PageHeading title="Deposit addresses" />
      <p>
        Every deposit address a sweep or revocation named, and those registered with their authorizations (POST /v1/deposit-addresses), with what the service knows
        of its delegation and its latest deposit (listed tokens&apos; transfers and native coin sent to it by a transaction; GET /v1/deposits lists them all).
      </p>
      <FilteredList list={list} selects={[["delegation", "Delegation", "Any delegation", DELEGATIONS]]} addresses={[["address", "Deposit address"]]} empty="No deposit addresses match.">
        {(addresses, chains) => (
          <DataTable
            caption="Deposit addresses, newest first"
            testId="deposit-addresses"
            rows={addresses}
            rowKey={(entry) => `${entry.chain_id}:${entry.address}`}
            columns={[
              { header: "Deposit address", rowHeader: true, cell: (entry) => <code title={entry.address}>{shorten(entry.address)}</code> },
              { header: "Chain", cell: (entry) => entry.chain_id },
              { header: "Delegation", cell: (entry) => <span className={`status status-${entry.delegation}`}>{entry.delegation}</span> },
              { header: "Delegate", cell: (entry) => (entry.delegate ? <code title={entry.delegate}>{shorten(entry.delegate)}</code> : "") },
              { header: "Latest deposit", cell: (entry) => latestDeposit(entry.recent_deposits[0], assetOf(chains, entry.chain_id, entry.recent_deposits[0]?.token)) },
              { header: "Last activity", cell: (entry) => (entry.last_activity_at ? formatTime(entry.last_activity_at) : "") },
              { header: "Added", cell: (entry) => formatTime(entry.created_at) },
            ]}
          />
        )}
      </FilteredList>
    </>
  );
}

type Deposit = NonNullable<paths["/v1/deposits"]["get"]["responses"][200]["content"]["application/json"]["items"]>[number];

function latestDeposit(deposit: Deposit | undefined, asset: Asset | undefined) {
  if (!deposit) return "";
  return (
    <span title={`${deposit.tx_hash}, block ${deposit.block_number}, seen ${formatTime(deposit.detected_at)}`}>
      <Amount value={deposit.amount} asset={asset} />, <span className={`status status-${deposit.status}`}>{deposit.status}</span>
    </span>
  );
}
