import type { Authorization } from "ethers";
import { parseStoredAuthorization } from "./sweep-plan";

/** What the sender needs of one revocation batch item and its revocation. */
export interface RevocationItemRow {
  position: number;
  revocationId: string;
  account: string;
  /** the authorization of the zero address, as the API stores it */
  authorization: unknown;
}

export type RevocationOutcome = "revoked" | "not_applied";

/** The items' authorizations in their order, or null when one of them cannot be read. */
export function revocationAuthorizations(items: readonly RevocationItemRow[]): Authorization[] | null {
  const list: Authorization[] = [];
  for (const item of items) {
    const authorization = parseStoredAuthorization(item.authorization);
    if (!authorization) return null;
    list.push(authorization);
  }
  return list;
}

/**
 * A revoked account's outcome from its code at the transaction's block: none left means the
 * delegation was removed; any code means the chain skipped the authorization (say, its nonce had moved).
 */
export function revocationOutcome(code: string): RevocationOutcome {
  return code === "0x" ? "revoked" : "not_applied";
}
