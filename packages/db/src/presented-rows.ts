import type { Prisma } from "@prisma/client";

/**
 * The columns the API's presenters (@sweep/api-contract) read, selected once for every reader of
 * the GET shapes: the gateway's answers and the webhook dispatcher's event bodies.
 */

/** A sweep as answered, its hot wallet's address included. */
export const sweepViewSelect = {
  id: true,
  externalId: true,
  chainId: true,
  hotWallet: { select: { address: true } },
  account: true,
  token: true,
  tokenAddress: true,
  amount: true,
  keepOneUnit: true,
  status: true,
  reason: true,
  attempts: true,
  sweptAmount: true,
  txHash: true,
  kind: true,
  gas: true,
  gasCost: true,
  fee: true,
  classicGas: true,
  rateBps: true,
  createdBy: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.SweepSelect;

export type SweepView = Prisma.SweepGetPayload<{ select: typeof sweepViewSelect }>;

/** A revocation as answered. */
export const revocationViewSelect = {
  id: true,
  externalId: true,
  chainId: true,
  account: true,
  status: true,
  reason: true,
  attempts: true,
  txHash: true,
  gas: true,
  gasCost: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.RevocationSelect;

export type RevocationView = Prisma.RevocationGetPayload<{ select: typeof revocationViewSelect }>;

/** A sweep policy as answered. */
export const sweepPolicyViewSelect = {
  chainId: true,
  token: true,
  tokenAddress: true,
  hotWallet: { select: { address: true } },
  enabled: true,
  minBalance: true,
  maxFeePerGas: true,
  maxCostBps: true,
  tokenValueWei: true,
  schedule: true,
  scheduleAt: true,
  nextRunAt: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.SweepPolicySelect;

export type SweepPolicyView = Prisma.SweepPolicyGetPayload<{ select: typeof sweepPolicyViewSelect }>;

/** A deposit as answered (GET /v1/deposits, deposit.detected). */
export const depositViewSelect = {
  id: true,
  chainId: true,
  address: true,
  token: true,
  tokenAddress: true,
  amount: true,
  txHash: true,
  logIndex: true,
  blockNumber: true,
  status: true,
  detectedAt: true,
  confirmedAt: true,
} satisfies Prisma.DepositSelect;

export type DepositView = Prisma.DepositGetPayload<{ select: typeof depositViewSelect }>;

/** A deposit address of the inventory as answered (its newest deposits are read apart: see api-gateway's deposits/queries.ts). */
export const depositAddressViewSelect = {
  chainId: true,
  address: true,
  delegation: true,
  delegate: true,
  authorization: true,
  lastActivityAt: true,
  compromisedTxHash: true,
  compromisedBlock: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.DepositAddressSelect;

export type DepositAddressView = Prisma.DepositAddressGetPayload<{ select: typeof depositAddressViewSelect }>;

/** A hot wallet as answered. */
export const hotWalletViewSelect = { chainId: true, address: true, delegate: true, status: true, error: true, txHash: true, createdAt: true } satisfies Prisma.HotWalletSelect;
