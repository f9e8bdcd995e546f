/**
 * A chain-sender wired to real parts for tests: a database of its own (the watcher scans every
 * row), a real anvil with the platform contracts, a partner whose gas wallet key is sealed like in
 * production, and the sender, deploy handler and watcher of chain 97 (or of a chain added by
 * configuration, on the node kind asked for, behind an RPC fault proxy when asked).
 */
import { randomBytes } from "node:crypto";
import { connectChains, factoryAddress, loadChainConfigs } from "@sweep/chains";
import { developmentKek } from "@sweep/key-custody";
import type { ChainClient } from "@sweep/rpc";
import type { FeeCeiling } from "@sweep/fees";
import { createLogger } from "@sweep/common";
import { contractAt, delegateAddress } from "@sweep/contracts";
import { createDb, toDecimal, type Db, type Prisma, type SweepKind } from "@sweep/db";
import { deleteTopology as deleteTopologyOf, queueNames, type Messaging, type QueueNames } from "@sweep/messaging";
import {
  createTestDatabase,
  createTestPartner,
  configuredChainEnv,
  startRpcFaultProxy,
  startTestChain,
  type ConfiguredTestChain,
  type NodeKind,
  type RpcFaultProxy,
  type TestChain,
  type TestPartner,
} from "@sweep/testkit";
import { Wallet, ZeroAddress, parseEther, type BaseWallet } from "ethers";
import { BatchSender } from "../src/send/batch-sender";
import { DeployRequests } from "../src/send/deploy-requests";
import { GasWalletSigners } from "../src/gas-wallet-signers";
import { ChainWatcher, type WatcherOptions } from "../src/watch/watcher";

export const CHAIN_ID = 97;
// Expected warnings (refused broadcasts, failed attempts) would drown the test output; CHAIN_SENDER_TEST_LOG_LEVEL shows them.
export const logger = createLogger("chain-sender-test", process.env.CHAIN_SENDER_TEST_LOG_LEVEL ?? "error");

export interface Harness {
  chainId: number;
  db: Db;
  databaseUrl: string;
  chain: TestChain;
  names: QueueNames;
  prefix: string;
  signers: GasWalletSigners;
  client: ChainClient;
  /** where the sender's withdrawals go */
  treasury: string;
  /** the chain's delegate factory */
  factory: string;
  /** the chain's fee ceilings (its defaults) */
  feeCeiling: FeeCeiling;
  sender: BatchSender;
  deploys: DeployRequests;
  /** the fault proxy the sender and watcher reach the node through, when asked for */
  proxy?: RpcFaultProxy;
  watcher(overrides?: Partial<WatcherOptions>): ChainWatcher;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  blockTime?: number;
  /** a chain added by configuration (configuredChainEnv, with `env` over it) on a node of this kind, instead of chain 97 on anvil */
  configured?: { chain: ConfiguredTestChain; node: NodeKind; env?: Record<string, string> };
  /** the sender and watcher reach the node through an RPC fault proxy of this many backends (Harness.proxy) */
  proxyBackends?: number;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const database = await createTestDatabase();
  const db = createDb(database.url);
  const chainId = options.configured?.chain.chainId ?? CHAIN_ID;
  const configuredEnv = options.configured ? { ...configuredChainEnv(options.configured.chain), ...options.configured.env } : {};
  let chain: TestChain | undefined;
  let proxy: RpcFaultProxy | undefined;
  try {
    chain = await startTestChain(chainId, { blockTime: options.blockTime, node: options.configured?.node, env: configuredEnv });
    if (options.proxyBackends) proxy = await startRpcFaultProxy({ target: chain.rpcUrl, backends: options.proxyBackends });
    const env = { ...configuredEnv, ...chain.env, ...(proxy ? { [`RPC_URL_${chainId}`]: proxy.url } : {}) };
    const served = connectChains(loadChainConfigs("testnet", [chainId], env), { timeoutMs: 5_000 })[0]!;
    const prefix = `cs-${randomBytes(4).toString("hex")}`;
    const names = queueNames(prefix);
    const signers = new GasWalletSigners([developmentKek]);
    const { client } = served;
    const treasury = Wallet.createRandom().address;
    const sender = new BatchSender({ db, names, client, signers, gasLimitMarginBps: 2_000, treasury, factory: served.factory, feeCeiling: served.feeCeiling, logger });
    const deploys = new DeployRequests({ db, client, sender, logger });
    const testChain = chain;
    return {
      chainId,
      db,
      databaseUrl: database.url,
      chain,
      names,
      prefix,
      signers,
      client,
      treasury,
      factory: served.factory,
      feeCeiling: served.feeCeiling,
      proxy,
      sender,
      deploys,
      watcher: (overrides = {}) =>
        new ChainWatcher({ db, names, client, signers, logger, feeCeiling: served.feeCeiling, intervalMs: 50, headPollMs: 10, replaceAfterMs: 60_000, bumpsFees: true, gapGraceMs: 0, dropAfterMs: 60_000, ...overrides }),
      stop: async () => {
        served.provider.destroy();
        await db.$disconnect();
        await proxy?.close();
        await testChain.stop();
        await database.drop();
      },
    };
  } catch (err) {
    await db.$disconnect();
    await proxy?.close();
    await chain?.stop();
    await database.drop();
    throw err;
  }
}

export interface FundedPartner extends TestPartner {
  gasWalletId: string;
}

export async function partnerWithGasWallet(h: Harness, funds: bigint = parseEther("10")): Promise<FundedPartner> {
  const partner = await createTestPartner(h.db);
  if (funds > 0n) await h.chain.setBalance(partner.gasWallet, funds);
  const gasWallet = await h.db.gasWallet.findUniqueOrThrow({ where: { partnerId: partner.partnerId } });
  return { ...partner, gasWalletId: gasWallet.id };
}

/** A hot wallet as the API registers it: pending, its delegate known from the factory. */
export async function registerHotWallet(h: Harness, partner: FundedPartner, address = Wallet.createRandom().address) {
  return h.db.hotWallet.create({
    data: { partnerId: partner.partnerId, chainId: h.chainId, address, delegate: delegateAddress(factoryAddress(h.chainId), address, partner.gasWallet), status: "pending" },
  });
}

/** A hot wallet whose delegate is on chain (deployed directly through the factory) and that the ledger marked active. */
export async function activeHotWallet(h: Harness, partner: FundedPartner) {
  const hotWallet = await registerHotWallet(h, partner);
  const deployer = await h.chain.provider.getSigner(0);
  const factory = contractAt("DelegateFactory", factoryAddress(h.chainId), deployer);
  await (await factory.getFunction("deploy")(hotWallet.address, partner.gasWallet)).wait();
  return h.db.hotWallet.update({ where: { id: hotWallet.id }, data: { status: "active" } });
}

export interface SweepSpec {
  owner: BaseWallet;
  /** null for the native coin */
  tokenAddress: string | null;
  kind: SweepKind;
  withAuthorization: boolean;
  amount?: bigint;
  keepOneUnit?: boolean;
}

/** A batch as the batcher leaves it: open, its sweeps processing with attempts counted, items in transaction order. */
export async function openSweepBatch(h: Harness, partner: FundedPartner, hotWallet: { id: string; delegate: string }, specs: SweepSpec[]) {
  return h.db.$transaction(async (tx) => {
    const batch = await tx.batch.create({ data: { chainId: h.chainId, gasWalletId: partner.gasWalletId, hotWalletId: hotWallet.id, purpose: "sweep" } });
    const sweepIds: string[] = [];
    for (const [position, spec] of specs.entries()) {
      const nonce = await h.chain.provider.getTransactionCount(spec.owner.address);
      const auth = spec.owner.authorizeSync({ address: hotWallet.delegate, nonce, chainId: BigInt(h.chainId) });
      const sweep = await tx.sweep.create({
        data: {
          partnerId: partner.partnerId,
          chainId: h.chainId,
          hotWalletId: hotWallet.id,
          account: spec.owner.address,
          token: spec.tokenAddress ? "USDT" : "tBNB",
          tokenAddress: spec.tokenAddress,
          amount: spec.amount === undefined ? null : toDecimal(spec.amount),
          keepOneUnit: spec.keepOneUnit ?? false,
          authorization: { chain_id: h.chainId, address: hotWallet.delegate, nonce, y_parity: auth.signature.yParity, r: auth.signature.r, s: auth.signature.s },
          status: "processing",
          attempts: 1,
          batchId: batch.id,
        },
      });
      await tx.batchItem.create({ data: { batchId: batch.id, position, sweepId: sweep.id, withAuthorization: spec.withAuthorization, kind: spec.kind } });
      sweepIds.push(sweep.id);
    }
    return { batchId: batch.id, sweepIds };
  });
}

/** Delegates the deposit address to `delegate` on chain: a funded stranger sends its authorization in a type-4 transaction to itself. */
export async function delegateOnChain(h: Harness, deposit: BaseWallet, delegate: string): Promise<void> {
  const sponsor = Wallet.createRandom(h.chain.provider);
  await h.chain.setBalance(sponsor.address, parseEther("1"));
  const nonce = await h.chain.provider.getTransactionCount(deposit.address);
  const authorization = deposit.authorizeSync({ address: delegate, nonce, chainId: BigInt(h.chainId) });
  await (await sponsor.sendTransaction({ type: 4, to: sponsor.address, authorizationList: [authorization] })).wait();
}

/** The deposit address's authorization of the zero address at its nonce now, as the API stores it. */
export async function revocationAuthorization(h: Harness, owner: BaseWallet) {
  const nonce = await h.chain.provider.getTransactionCount(owner.address);
  const { signature } = owner.authorizeSync({ address: ZeroAddress, nonce, chainId: BigInt(h.chainId) });
  return { chain_id: h.chainId, address: ZeroAddress, nonce, y_parity: signature.yParity, r: signature.r, s: signature.s };
}

/** A revocation batch as the batcher leaves it: open, its revocations processing with attempts counted, one item each carrying its authorization. */
export async function openRevocationBatch(h: Harness, partner: FundedPartner, revocations: Array<{ account: string; authorization: Prisma.InputJsonValue }>) {
  return h.db.$transaction(async (tx) => {
    const batch = await tx.batch.create({ data: { chainId: h.chainId, gasWalletId: partner.gasWalletId, purpose: "revocation" } });
    const revocationIds: string[] = [];
    for (const [position, { account, authorization }] of revocations.entries()) {
      const revocation = await tx.revocation.create({
        data: { partnerId: partner.partnerId, chainId: h.chainId, account, authorization, status: "processing", attempts: 1, batchId: batch.id },
      });
      await tx.batchItem.create({ data: { batchId: batch.id, position, revocationId: revocation.id, withAuthorization: true } });
      revocationIds.push(revocation.id);
    }
    return { batchId: batch.id, revocationIds };
  });
}

/** Runs watcher rounds until `check` returns a value, or fails after `timeoutMs`. */
export async function watchUntil<T>(watcher: ChainWatcher, what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await watcher.runOnce();
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function outboxOf(h: Harness, type: string) {
  return h.db.outboxMessage.findMany({ where: { type }, orderBy: { id: "asc" } });
}

/** Removes the test's queues and exchanges from the shared broker. */
export function deleteTopology(messaging: Messaging): Promise<void> {
  return deleteTopologyOf(process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672", messaging.topology);
}
