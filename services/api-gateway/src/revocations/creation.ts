import { randomUUID } from "node:crypto";
import type { RevocationRequest } from "@sweep/api-contract";
import { ApiError } from "../http/api-error";
import { revocationViewSelect, type Db, type RevocationView } from "@sweep/db";
import { states } from "@sweep/lifecycle";
import { outboxDraft, type QueueNames } from "@sweep/messaging";
import { ZeroAddress } from "ethers";
import type { Pool } from "pg";
import { verifiedAuthorization } from "../authorization";
import { checksumAddress, servedChain, type GatewayChain } from "../chains";
import { DuplicateExternalId } from "../external-id-conflict";
import type { WorkCreation } from "../work/work-routes";
import { insertRevocation, type InsertedRevocation, type RevocationDraft } from "./revocation-insert";

export interface RevocationCreationDeps {
  db: Db;
  /** the insert's own connections (see revocation-insert.ts) */
  pool: Pool;
  names: QueueNames;
  chains: ReadonlyMap<number, GatewayChain>;
}

/**
 * POST /v1/revocations after the schema: the chain, then the authorization of the zero address
 * (required here, unlike a sweep's), then the revocation and its revocation.queued message in one
 * statement. No chain is asked: the batcher checks the account's delegation and nonce.
 */
export async function createRevocation(deps: RevocationCreationDeps, partnerId: string, request: RevocationRequest): Promise<WorkCreation<RevocationView>> {
  const chain = servedChain(deps.chains, request.chain_id);
  const account = checksumAddress(request.account);
  if (!request.authorization) {
    throw new ApiError("invalid_authorization", `authorization is required to revoke: sign an authorization of the zero address ${ZeroAddress} with the deposit address's key`);
  }
  const authorization = verifiedAuthorization(request.authorization, { chainId: chain.chainId, delegate: ZeroAddress, delegateName: "the zero address", signer: account });

  const draft: RevocationDraft = { id: randomUUID(), partnerId, externalId: request.external_id ?? null, chainId: chain.chainId, account, authorization };
  const message = outboxDraft("revocation.queued", { revocationId: draft.id, chainId: draft.chainId }, deps.names);
  try {
    const inserted = await insertRevocation(deps.pool, draft, message);
    return { status: 202, view: newRevocationView(draft, inserted) };
  } catch (err) {
    // The insert waited for the revocation that took this external_id, so it is committed and readable.
    if (err instanceof DuplicateExternalId && draft.externalId !== null) return { status: 200, view: await existingRevocation(deps.db, partnerId, draft.externalId) };
    throw err;
  }
}

/** A revocation just inserted, as GET would read it. */
function newRevocationView(draft: RevocationDraft, inserted: InsertedRevocation): RevocationView {
  return {
    id: draft.id,
    externalId: draft.externalId,
    chainId: draft.chainId,
    account: draft.account,
    status: states.revocation.queued,
    reason: null,
    attempts: 0,
    txHash: null,
    gas: null,
    gasCost: null,
    createdAt: inserted.createdAt,
    updatedAt: inserted.updatedAt,
  };
}

/** The revocation that took this external_id first. */
function existingRevocation(db: Db, partnerId: string, externalId: string): Promise<RevocationView> {
  return db.revocation.findUniqueOrThrow({ where: { partnerId_externalId: { partnerId, externalId } }, select: revocationViewSelect });
}
