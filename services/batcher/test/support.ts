/**
 * Fixtures for the batcher's tests: a hot wallet whose delegate is really deployed on anvil,
 * deposit addresses in the states a sweep meets (token only, holding native coin, delegated),
 * their authorizations, and sweeps and revocations inserted as the API inserts them.
 */
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { DEFAULT_FEE_CEILINGS } from "@sweep/fees";
import { factoryAddress } from "@sweep/chains";
import { createLogger } from "@sweep/common";
import { contractAt, delegateAddress } from "@sweep/contracts";
import { createDb, toDecimal, type Db, type Prisma, type Tx } from "@sweep/db";
import { deleteTopology as deleteTopologyOf, outboxDraft, type QueueNames, type Topology } from "@sweep/messaging";
import { finalAtDepth } from "@sweep/rpc";
import { createTestPartner, type TestChain } from "@sweep/testkit";
import { Wallet, ZeroAddress, getAddress, parseEther, type BaseWallet } from "ethers";
import type { DelegationFirewallOptions } from "../src/firewall/delegation-firewall";

export const RABBITMQ_URL = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";
export const logger = createLogger("batcher-test", "debug");

/** The test chain's default fee ceilings, as the batcher serves it without MAX_FEE_PER_GAS_97. */
export const feeCeilings = new Map([[97, DEFAULT_FEE_CEILINGS[97]!]]);
// Some tests provoke failures on purpose; their logs are noise unless asked for.
logger.silent = process.env.LOG_LEVEL !== "debug";

export const uniquePrefix = () => `test-batcher-${randomBytes(4).toString("hex")}`;

/**
 * What the firewall's block runs know of a test chain, as the batcher's main gives them: its devnet
 * USDT listed, its native ticker, final at `confirmations` deep.
 */
export function chainWatchOf(chain: TestChain, confirmations = 1): Pick<DelegationFirewallOptions, "chainId" | "provider" | "tokens" | "nativeTicker" | "finalBlock"> {
  return {
    chainId: chain.chainId,
    provider: chain.provider,
    tokens: [{ ticker: "USDT", address: chain.usdt.address }],
    nativeTicker: "tBNB",
    finalBlock: async (head) => finalAtDepth(head, confirmations),
  };
}

export interface HotWalletFixture {
  partnerId: string;
  gasWallet: string;
  hotWalletId: string;
  address: string;
  delegate: string;
}

/** A partner with a hot wallet on the chain, active, its delegate deployed through the factory. */
export async function activeHotWallet(db: Db, chain: TestChain): Promise<HotWalletFixture> {
  const partner = await createTestPartner(db);
  const address = Wallet.createRandom().address;
  const factory = factoryAddress(chain.chainId, {});
  const delegate = delegateAddress(factory, address, partner.gasWallet);
  const deployer = contractAt("DelegateFactory", factory, await chain.provider.getSigner(0));
  await (await deployer.getFunction("deploy")(address, partner.gasWallet)).wait();
  if ((await chain.provider.getCode(delegate)) === "0x") throw new Error("the delegate was not deployed");
  const hotWallet = await db.hotWallet.create({ data: { partnerId: partner.partnerId, chainId: chain.chainId, address, delegate, status: "active" } });
  return { partnerId: partner.partnerId, gasWallet: partner.gasWallet, hotWalletId: hotWallet.id, address, delegate };
}

/** The authorization as the API stores it. */
export function storedAuthorization(wallet: BaseWallet, delegate: string, nonce: number, chainId: number): Prisma.InputJsonObject {
  const { signature } = wallet.authorizeSync({ address: delegate, nonce, chainId });
  return { chain_id: chainId, address: getAddress(delegate), nonce, y_parity: signature.yParity, r: signature.r, s: signature.s };
}

/** Delegates the deposit address to `delegate` on chain (the zero address removes its delegation): a funded stranger sends its authorization. */
export async function delegateOnChain(chain: TestChain, deposit: BaseWallet, delegate: string): Promise<void> {
  const sponsor = Wallet.createRandom(chain.provider);
  await chain.setBalance(sponsor.address, parseEther("1"));
  const nonce = await chain.provider.getTransactionCount(deposit.address);
  const authorization = deposit.authorizeSync({ address: delegate, nonce, chainId: chain.chainId });
  await (await sponsor.sendTransaction({ type: 4, to: sponsor.address, authorizationList: [authorization], nonce: 0 })).wait();
}

export interface SweepFixture {
  account: string;
  /** default: the chain's USDT; null for the native coin */
  tokenAddress?: string | null;
  amount?: bigint;
  keepOneUnit?: boolean;
  authorization?: Prisma.InputJsonObject;
  nextAttemptAt?: Date;
}

/** Inserts a queued sweep, with its sweep.queued outbox message when `names` is given (as POST /v1/sweeps does). */
export async function insertSweep(db: Db, chain: TestChain, hotWallet: HotWalletFixture, sweep: SweepFixture, names?: QueueNames): Promise<string> {
  const tokenAddress = sweep.tokenAddress === undefined ? chain.usdt.address : sweep.tokenAddress;
  // Tests insert fifty at once over a pool of a few connections: on a machine busy with the suite's
  // parallel workers, waiting for one takes longer than Prisma's 2 s default (maxWait).
  return db.$transaction(async (tx) => {
    const row = await tx.sweep.create({
      data: {
        partnerId: hotWallet.partnerId,
        chainId: chain.chainId,
        hotWalletId: hotWallet.hotWalletId,
        account: sweep.account,
        token: tokenAddress === null ? "tBNB" : "USDT",
        tokenAddress,
        amount: sweep.amount === undefined ? null : toDecimal(sweep.amount),
        keepOneUnit: sweep.keepOneUnit ?? false,
        authorization: sweep.authorization,
        nextAttemptAt: sweep.nextAttemptAt,
      },
      select: { id: true },
    });
    if (names) await tx.outboxMessage.create({ data: outboxDraft("sweep.queued", { sweepId: row.id, chainId: chain.chainId, hotWalletId: hotWallet.hotWalletId }, names) });
    return row.id;
  }, { maxWait: 30_000 });
}

export interface RevocationFixture {
  account: string;
  /** as the API stores it; revocationAuthorization makes a valid one */
  authorization: Prisma.InputJsonValue;
  nextAttemptAt?: Date;
}

/** The deposit address's authorization of the zero address, as the API stores a revocation's. */
export function revocationAuthorization(wallet: BaseWallet, nonce: number, chainId: number): Prisma.InputJsonObject {
  return storedAuthorization(wallet, ZeroAddress, nonce, chainId);
}

/** Inserts a queued revocation, with its revocation.queued outbox message when `names` is given (as POST /v1/revocations does). */
export async function insertRevocation(db: Db, chain: TestChain, partnerId: string, revocation: RevocationFixture, names?: QueueNames): Promise<string> {
  return db.$transaction(async (tx) => {
    const row = await tx.revocation.create({
      data: { partnerId, chainId: chain.chainId, account: revocation.account, authorization: revocation.authorization, nextAttemptAt: revocation.nextAttemptAt },
      select: { id: true },
    });
    if (names) await tx.outboxMessage.create({ data: outboxDraft("revocation.queued", { revocationId: row.id, chainId: chain.chainId }, names) });
    return row.id;
  });
}

/** A deposit address holding only USDT. */
export async function tokenOnlyAddress(chain: TestChain, amount = 1_000n): Promise<BaseWallet> {
  const wallet = Wallet.createRandom();
  await chain.mintUsdt(wallet.address, amount);
  return wallet;
}

/** Deletes the queues and exchanges of a test's topology, so runs leave nothing on the broker. */
/** Removes the test's own topology from the shared broker. */
export function deleteTopology(topology: Topology): Promise<void> {
  return deleteTopologyOf(RABBITMQ_URL, topology);
}

export interface HeldLock {
  /** the backend holding the lock */
  pid: number;
  /** ends the holding transaction; again changes nothing */
  release(): Promise<void>;
}

/** Takes locks (`lock`) in a transaction of its own and holds them until released: a claim that needs them stops there. */
export async function holdLock(db: Db, lock: (tx: Tx) => Promise<unknown>): Promise<HeldLock> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let acquired!: (pid: number) => void;
  const isAcquired = new Promise<number>((resolve) => (acquired = resolve));
  const holder = db.$transaction(
    async (tx) => {
      const [backend] = await tx.$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`;
      await lock(tx);
      acquired(backend!.pid);
      await released;
    },
    { timeout: 60_000 },
  );
  const pid = await Promise.race([isAcquired, holder.then(() => Promise.reject(new Error("the lock holder ended early")))]);
  return {
    pid,
    release: async () => {
      release();
      await holder;
    },
  };
}

/**
 * Runs `attempt` on a connection of its own, with a short lock timeout, while another transaction
 * holds `lock`: what it returns, or its error (a lock timeout when it waited for the held lock).
 */
export async function whileLockHeld<T>(db: Db, lock: (tx: Tx) => Promise<unknown>, attempt: (tx: Tx) => Promise<T>): Promise<T> {
  const held = await holdLock(db, lock);
  const otherDb = createDb(process.env.DATABASE_URL!);
  try {
    return await otherDb.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL lock_timeout = '500ms'`;
      return attempt(tx);
    });
  } finally {
    await held.release();
    await otherDb.$disconnect();
  }
}

/**
 * The first backend found waiting for a lock that backend `pid` holds; null once `over()` says
 * nothing will come to wait (checked after each look, so a waiter seen first still counts).
 */
export async function waiterFor(db: Db, pid: number, over: () => boolean = () => false): Promise<number | null> {
  for (;;) {
    const [waiter] = await db.$queryRaw<Array<{ pid: number }>>`SELECT pid FROM pg_stat_activity WHERE ${pid}::int = ANY(pg_blocking_pids(pid))`;
    if (waiter) return waiter.pid;
    if (over()) return null;
    await sleep(20);
  }
}
