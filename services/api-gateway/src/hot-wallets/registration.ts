import { randomUUID } from "node:crypto";
import { delegateAddress } from "@sweep/contracts";
import { Prisma, type Db, type HotWallet } from "@sweep/db";
import { createPendingHotWallet, redeployHotWallet, states } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";
import type { GatewayChain } from "../chains";

export interface Registration {
  /** 200 when the hot wallet is active, 202 while its delegate is being deployed */
  status: 200 | 202;
  hotWallet: HotWallet;
}

/** The account already has `max` hot wallets on the chain. */
export class HotWalletLimitReached extends Error {
  constructor(readonly max: number) {
    super(`at most ${max} hot wallets per chain`);
    this.name = "HotWalletLimitReached";
  }
}

export interface RegistrationRequest {
  partnerId: string;
  gasWallet: string;
  chain: GatewayChain;
  /** EIP-55 */
  address: string;
  /** hot wallets of the partner on the chain, whatever their status; a new one beyond is HotWalletLimitReached */
  maxPerChain: number;
}

const answer = (hotWallet: HotWallet): Registration => ({ status: hotWallet.status === states.hotWallet.active ? 200 : 202, hotWallet });

/**
 * POST /v1/hot-wallets: a new hot wallet is stored pending with its delegate's CREATE2 address,
 * and hot_wallet.deploy is queued in the same transaction. Pending and active ones are returned
 * as they are; a failed one starts over (pending, error and attempts cleared, deployment queued).
 * A new one beyond the partner's maximum on the chain is refused; one registered before still answers.
 */
export async function registerHotWallet(db: Db, names: QueueNames, request: RegistrationRequest): Promise<Registration> {
  const where = { partnerId_chainId_address: { partnerId: request.partnerId, chainId: request.chain.chainId, address: request.address } };
  const existing = await db.hotWallet.findUnique({ where });
  if (existing?.status === states.hotWallet.failed) return answer(await restartDeployment(db, names, existing));
  if (existing) return answer(existing);
  try {
    return answer(await createHotWallet(db, names, request));
  } catch (err) {
    // A concurrent registration of the same wallet won: answer with its row.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") return answer(await db.hotWallet.findUniqueOrThrow({ where }));
    throw err;
  }
}

async function createHotWallet(db: Db, names: QueueNames, request: RegistrationRequest): Promise<HotWallet> {
  const id = randomUUID();
  const { chainId } = request.chain;
  const delegate = delegateAddress(request.chain.factory, request.address, request.gasWallet);
  return db.$transaction(async (tx) => {
    // Concurrent registrations of one partner and chain count one after another, so none slips past the maximum.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`hot-wallets:${request.partnerId}:${chainId}`}, 0))`;
    const count = await tx.hotWallet.count({ where: { partnerId: request.partnerId, chainId } });
    if (count >= request.maxPerChain) throw new HotWalletLimitReached(request.maxPerChain);
    return createPendingHotWallet(tx, names, { id, partnerId: request.partnerId, chainId, address: request.address, delegate });
  });
}

async function restartDeployment(db: Db, names: QueueNames, failed: HotWallet): Promise<HotWallet> {
  return db.$transaction(async (tx) => {
    await redeployHotWallet(tx, names, failed);
    return tx.hotWallet.findUniqueOrThrow({ where: { id: failed.id } });
  });
}
