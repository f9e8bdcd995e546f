import { checksumAddress } from "../chains";
import type { PageRequest } from "../lists/page";

/** The filters that the list of every kind of work has. */
interface WorkListQuery<Status extends string> {
  status?: Status | undefined;
  chain_id?: number | undefined;
  account?: string | undefined;
}

/** The account's rows below the cursor's seq, filtered by what every kind's list has, combined; a kind adds its own filters. */
export function workListWhere<Status extends string>(partnerId: string, { query, below }: PageRequest<WorkListQuery<Status>>) {
  return {
    partnerId,
    ...(below !== null && { seq: { lt: below } }),
    ...(query.status && { status: query.status }),
    ...(query.chain_id !== undefined && { chainId: query.chain_id }),
    ...(query.account && { account: checksumAddress(query.account) }),
  };
}
