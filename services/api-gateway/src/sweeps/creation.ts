import { randomUUID } from "node:crypto";
import type { SweepRequest } from "@sweep/api-contract";
import { ApiError } from "../http/api-error";
import { sweepViewSelect, toDecimal, type Db, type SweepView } from "@sweep/db";
import { states } from "@sweep/lifecycle";
import { outboxDraft, type QueueNames } from "@sweep/messaging";
import { verifiedAuthorization } from "../authorization";
import { checksumAddress, listedToken, servedChain, type GatewayChain } from "../chains";
import type { WorkCreation } from "../work/work-routes";
import type { HotWalletDirectory } from "./hot-wallet-directory";
import type { GroupCommit } from "./group-commit";
import type { InsertedSweep, SweepDraft, SweepInsertOutcome, SweepRow } from "./sweep-insert";

export interface SweepCreationDeps {
  db: Db;
  /** the hot path's inserts, on its own connections (see sweep-insert.ts) */
  sweepInserts: GroupCommit<SweepRow, SweepInsertOutcome>;
  names: QueueNames;
  chains: ReadonlyMap<number, GatewayChain>;
  hotWallets: HotWalletDirectory;
}

/**
 * POST /v1/sweeps after the schema: the checks of the spec in its order, then the sweep and its
 * sweep.queued message in one statement. No chain is asked: the batcher checks the chain state.
 */
export async function createSweep(deps: SweepCreationDeps, partnerId: string, request: SweepRequest): Promise<WorkCreation<SweepView>> {
  const chain = servedChain(deps.chains, request.chain_id);
  const token = listedToken(chain, request.token);
  const account = checksumAddress(request.account);
  const native = token.address === null;

  const hotWallet = await deps.hotWallets.find(partnerId, chain.chainId, request.hot_wallet);
  if (!hotWallet) throw new ApiError("unknown_hot_wallet", `hot wallet ${checksumAddress(request.hot_wallet)} is not registered on chain ${chain.chainId}; register it with POST /v1/hot-wallets`);
  if (hotWallet.status !== states.hotWallet.active) {
    const why = hotWallet.status === states.hotWallet.pending ? "its delegate is still being deployed; retry shortly" : "its deployment failed; register it again with POST /v1/hot-wallets";
    throw new ApiError("hot_wallet_not_active", `hot wallet ${hotWallet.address} is not active: ${why}`);
  }

  // One that is sent is checked even when the address is delegated already and will not need it.
  const authorization = request.authorization
    ? verifiedAuthorization(request.authorization, { chainId: chain.chainId, delegate: hotWallet.delegate, delegateName: `this hot wallet's delegate ${hotWallet.delegate}`, signer: account })
    : null;

  const draft: SweepDraft = {
    id: randomUUID(),
    partnerId,
    externalId: request.external_id ?? null,
    chainId: chain.chainId,
    hotWalletId: hotWallet.id,
    account,
    token: token.ticker,
    tokenAddress: token.address,
    amount: request.amount === undefined ? null : BigInt(request.amount),
    // Ignored for the native coin; otherwise the request's choice, else the account setting (read by the insert).
    keepOneUnit: native ? false : (request.keep_one_unit ?? null),
    authorization,
  };
  const message = outboxDraft("sweep.queued", { sweepId: draft.id, chainId: draft.chainId, hotWalletId: draft.hotWalletId }, deps.names);
  const inserted = await deps.sweepInserts.write({ draft, message });
  if (inserted !== null) return { status: 202, view: newSweepView(draft, hotWallet.address, inserted) };
  if (draft.externalId === null) throw new Error(`partner ${partnerId} does not exist`);
  // The insert waited for the sweep that took this external_id, so it is committed and readable.
  return { status: 200, view: await existingSweep(deps.db, partnerId, draft.externalId) };
}

/** A sweep just inserted, as GET would read it. */
function newSweepView(draft: SweepDraft, hotWallet: string, inserted: InsertedSweep): SweepView {
  return {
    id: draft.id,
    externalId: draft.externalId,
    chainId: draft.chainId,
    hotWallet: { address: hotWallet },
    account: draft.account,
    token: draft.token,
    tokenAddress: draft.tokenAddress,
    amount: draft.amount === null ? null : toDecimal(draft.amount),
    keepOneUnit: inserted.keepOneUnit,
    status: states.sweep.queued,
    reason: null,
    createdBy: "partner",
    attempts: 0,
    sweptAmount: null,
    txHash: null,
    kind: null,
    gas: null,
    gasCost: null,
    fee: null,
    classicGas: null,
    rateBps: null,
    createdAt: inserted.createdAt,
    updatedAt: inserted.updatedAt,
  };
}

/** The sweep that took this external_id first. */
function existingSweep(db: Db, partnerId: string, externalId: string): Promise<SweepView> {
  return db.sweep.findUniqueOrThrow({ where: { partnerId_externalId: { partnerId, externalId } }, select: sweepViewSelect });
}
