import { randomUUID } from "node:crypto";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import { policySweepsCreatedTotal } from "@sweep/metrics";
import { PollingLoop } from "@sweep/worker";
import type { ChainProvider } from "@sweep/rpc";
import { balanceKey, accountKey } from "../batch-plan";
import { readChainSnapshot, type ReadBatching } from "../chain-reads";
import { nextRunAfter, type Schedule } from "./policy-rules";

export interface PolicySweepsOptions {
  db: Db;
  chainId: number;
  provider: ChainProvider;
  reads: ReadBatching;
  logger: Logger;
  /** asks for a round of the hot wallet whose policy made sweeps */
  request(hotWalletId: string): void;
  /** addresses judged at most in one round; the rest next round */
  maxAddresses: number;
}

/**
 * An address found below its policy's minimum is judged again when a new deposit arrives, or after
 * this: its balance may have grown by coin no detection sees. Not every block, which would read every
 * such address's balance at every block.
 */
export const BELOW_MINIMUM_RECHECK_MS = 10 * 60_000;

/** A policy that may make sweeps, as a round reads it. */
interface LivePolicy {
  id: string;
  partnerId: string;
  token: string;
  tokenAddress: string | null;
  hotWalletId: string;
  minBalance: bigint;
  schedule: Schedule;
  nextRunAt: Date | null;
}

/** An address with confirmed deposits of a policy's token that no sweep covers yet. */
interface Unswept {
  partnerId: string;
  address: string;
  token: string;
  depositIds: string[];
  /** the newest of them, which names the sweep: deposit:<chain>:<tx>:<log index> */
  newest: { txHash: string; logIndex: number };
}

/**
 * The sweep policies of one chain, a round a block: for each enabled policy whose schedule is open
 * (asap, or its hourly or daily window reached), the addresses with confirmed deposits of its token
 * that no sweep covers yet, each address's balance read on chain (which counts native coin no
 * detection sees, sent by contracts' internal calls), and, where it is at least the policy's
 * minimum, one sweep of the whole balance to the policy's hot wallet: created_by policy, its
 * external_id derived from the newest deposit (one sweep per deposit however often a round runs),
 * the address's held authorization carried, and the deposits linked to it in the same transaction.
 * An address with a policy sweep still open waits for it to end. The batcher then claims these
 * sweeps as any other, judging the policy's gas price and cost rules at the batch (batch-plan.ts).
 */
export class PolicySweeps {
  constructor(private readonly options: PolicySweepsOptions) {}

  /** One round; returns the sweeps made. */
  async runOnce(now = new Date()): Promise<number> {
    return (await this.runRound(now)).made;
  }

  /**
   * One round: the sweeps made, the addresses judged, and the next scheduled window of the
   * chain's policies after this round (null: none), before which a round that judged nothing need not run.
   */
  async runRound(now = new Date()): Promise<{ made: number; judged: number; nextWindowAt: Date | null }> {
    const { due, nextWindowAt } = await this.duePolicies(now);
    if (due.length === 0) return { made: 0, judged: 0, nextWindowAt };
    const unswept = await this.unsweptOf(due);
    const made = unswept.length === 0 ? [] : await this.sweepWhereDue(due, unswept);
    let next = nextWindowAt;
    for (const policy of due) {
      if (policy.schedule.kind === "asap") continue;
      const window = nextRunAfter(policy.schedule, now);
      await this.options.db.sweepPolicy.update({ where: { id: policy.id }, data: { nextRunAt: window } });
      next = earliest(next, window);
    }
    for (const hotWalletId of new Set(made.map((m) => m.hotWalletId))) this.options.request(hotWalletId);
    return { made: made.length, judged: unswept.length, nextWindowAt: next };
  }

  /**
   * The chain's enabled policies of enabled partners and active hot wallets whose window is open, and the
   * earliest window of those not open yet; a scheduled one seen first is given its first window.
   */
  private async duePolicies(now: Date): Promise<{ due: LivePolicy[]; nextWindowAt: Date | null }> {
    const { db, chainId } = this.options;
    const rows = await db.sweepPolicy.findMany({ where: { chainId, enabled: true, partner: { enabled: true }, hotWallet: { status: "active" } } });
    const due: LivePolicy[] = [];
    let nextWindowAt: Date | null = null;
    for (const row of rows) {
      const schedule: Schedule = row.schedule === "asap" ? { kind: "asap" } : row.schedule === "hourly" ? { kind: "hourly", minute: row.scheduleAt } : { kind: "daily", minuteOfDay: row.scheduleAt };
      if (schedule.kind !== "asap") {
        if (row.nextRunAt === null) {
          const window = nextRunAfter(schedule, now);
          await db.sweepPolicy.update({ where: { id: row.id }, data: { nextRunAt: window } });
          nextWindowAt = earliest(nextWindowAt, window);
          continue;
        }
        if (row.nextRunAt > now) {
          nextWindowAt = earliest(nextWindowAt, row.nextRunAt);
          continue;
        }
      }
      due.push({ ...row, minBalance: BigInt(row.minBalance.toFixed(0)), schedule });
    }
    return { due, nextWindowAt };
  }

  /**
   * Addresses with confirmed deposits of the due policies' tokens no sweep covers, not compromised, with
   * no sweep of the token open (a partner's own moves the balance too), and a deposit not yet judged or
   * judged long enough ago.
   */
  private async unsweptOf(due: readonly LivePolicy[]): Promise<Unswept[]> {
    const { db, chainId, maxAddresses } = this.options;
    const rows = await db.$queryRaw<Array<{ partnerId: string; address: string; token: string; depositIds: string[]; txHash: string; logIndex: number }>>`
      SELECT d.partner_id::text AS "partnerId", d.address, d.token,
             array_agg(d.id::text ORDER BY d.seq) AS "depositIds",
             (array_agg(d.tx_hash ORDER BY d.seq DESC))[1] AS "txHash",
             (array_agg(d.log_index ORDER BY d.seq DESC))[1] AS "logIndex"
        FROM deposits d
        JOIN unnest(${due.map((p) => p.partnerId)}::uuid[], ${due.map((p) => p.token)}::text[]) AS policy(partner_id, token)
          ON policy.partner_id = d.partner_id AND policy.token = d.token
       WHERE d.chain_id = ${chainId} AND d.status = 'confirmed' AND d.sweep_id IS NULL
         AND NOT EXISTS (SELECT 1 FROM deposit_addresses a
                          WHERE a.partner_id = d.partner_id AND a.chain_id = d.chain_id AND a.address = d.address AND a.delegation = 'compromised')
         AND NOT EXISTS (SELECT 1 FROM sweeps s
                          WHERE s.partner_id = d.partner_id AND s.chain_id = d.chain_id AND s.account = d.address AND s.token = d.token
                            AND s.status IN ('queued', 'processing'))
       GROUP BY d.partner_id, d.address, d.token
      HAVING bool_or(d.policy_checked_at IS NULL OR d.policy_checked_at < now() - ${`${BELOW_MINIMUM_RECHECK_MS} milliseconds`}::interval)
       ORDER BY min(d.seq)
       LIMIT ${maxAddresses}`;
    return rows.map((row) => ({ ...row, newest: { txHash: row.txHash, logIndex: row.logIndex } }));
  }

  /** The balances of the unswept addresses at one block, and a sweep for each at or above its policy's minimum. */
  private async sweepWhereDue(due: readonly LivePolicy[], unswept: readonly Unswept[]): Promise<Array<{ hotWalletId: string }>> {
    const { db, chainId, provider, reads, logger } = this.options;
    const policyOf = new Map(due.map((p) => [`${p.partnerId}:${p.token}`, p]));
    const snapshot = await readChainSnapshot(
      provider,
      {
        accounts: [...new Set(unswept.map((u) => u.address))],
        tokenBalances: unswept.flatMap((u) => {
          const token = policyOf.get(`${u.partnerId}:${u.token}`)!.tokenAddress;
          return token === null ? [] : [{ account: u.address, token }];
        }),
      },
      reads,
    );
    const atMinimum = (u: Unswept) => {
      const policy = policyOf.get(`${u.partnerId}:${u.token}`)!;
      const balance = policy.tokenAddress === null ? snapshot.accounts.get(accountKey(u.address))!.nativeBalance : snapshot.tokenBalances.get(balanceKey(u.address, policy.tokenAddress))!;
      return balance >= policy.minBalance && balance > 0n;
    };
    const ready = unswept.filter(atMinimum);
    const below = unswept.filter((u) => !atMinimum(u)).flatMap((u) => u.depositIds);
    if (below.length > 0) await db.deposit.updateMany({ where: { id: { in: below } }, data: { policyCheckedAt: new Date() } });
    // One transaction for the round's sweeps: a claim (a message's, the poller's) sees all of them or none, so a
    // round's sweeps go out in one batch rather than in the pieces committed before the claim looked.
    const outcomes = await db.$transaction(
      async (tx) => {
        const done: Array<{ u: Unswept; policy: LivePolicy; id: string; externalId: string; outcome: "made" | "covered" | "external_id_taken" }> = [];
        for (const u of ready) {
          const policy = policyOf.get(`${u.partnerId}:${u.token}`)!;
          const externalId = `deposit:${chainId}:${u.newest.txHash}:${u.newest.logIndex}`;
          const id = randomUUID();
          // Another batcher of the chain may be making the same sweep: the deposits, locked, say whether one already covers them.
          const free = await tx.$queryRaw<Array<{ id: string }>>`SELECT id::text FROM deposits WHERE id = ANY(${u.depositIds}::uuid[]) AND sweep_id IS NULL FOR UPDATE`;
          if (free.length < u.depositIds.length) {
            done.push({ u, policy, id, externalId, outcome: "covered" });
            continue;
          }
          const inserted = await tx.$executeRaw`
            INSERT INTO sweeps (id, partner_id, external_id, chain_id, hot_wallet_id, account, token, token_address, amount, keep_one_unit, "authorization", created_by, updated_at)
            SELECT ${id}::uuid, p.id, ${externalId}, ${chainId}, h.id, ${u.address}, ${policy.token}, ${policy.tokenAddress}, NULL,
                   ${policy.tokenAddress !== null} AND p.keep_one_unit, held."authorization", 'policy', now()
              FROM partners p
              JOIN hot_wallets h ON h.id = ${policy.hotWalletId}::uuid
              LEFT JOIN deposit_addresses held
                ON held.partner_id = p.id AND held.chain_id = ${chainId} AND held.address = ${u.address} AND held.delegation = 'authorized' AND held.delegate = h.delegate
             WHERE p.id = ${u.partnerId}::uuid
            ON CONFLICT (partner_id, external_id) DO NOTHING`;
          if (inserted === 0) {
            done.push({ u, policy, id, externalId, outcome: "external_id_taken" });
            continue;
          }
          await tx.deposit.updateMany({ where: { id: { in: u.depositIds } }, data: { sweepId: id } });
          done.push({ u, policy, id, externalId, outcome: "made" });
        }
        return done;
      },
      { maxWait: 10_000, timeout: 60_000 },
    );
    const made: Array<{ hotWalletId: string }> = [];
    for (const { u, policy, id, externalId, outcome } of outcomes) {
      if (outcome === "external_id_taken") logger.warn("a policy sweep's external_id is taken by another sweep of the partner: its deposits wait (docs/sweep-policies.md)", { chainId, partnerId: u.partnerId, externalId });
      if (outcome !== "made") continue;
      policySweepsCreatedTotal.inc({ chain_id: chainId, token: policy.token });
      logger.info("policy sweep made", { chainId, partnerId: u.partnerId, sweepId: id, externalId, account: u.address, token: policy.token, deposits: u.depositIds.length });
      made.push({ hotWalletId: policy.hotWalletId });
    }
    return made;
  }
}

/**
 * A round that judged no address rests longer, doubling up to this: the chain's delegation firewall
 * wakes the loop when it confirms deposits, so the rest only delays what no wake announces (deposits
 * confirmed by another batcher, a policy just set, a balance judged below its minimum long ago), by
 * this at most; a scheduled window opens on time (docs/decisions.md).
 */
export const POLICY_IDLE_MAX_MS = 10_000;

/** The policies' loop of a chain: a round every block while it finds addresses to judge, resting when it finds none. */
export function startPolicySweeps(options: PolicySweepsOptions & { blockTimeMs: number }): { stop(): Promise<void>; wake(): void } {
  const policies = new PolicySweeps(options);
  const logger = options.logger.child({ chainId: options.chainId, loop: "sweep policies" });
  const intervalMs = Math.max(250, options.blockTimeMs);
  const loop = new PollingLoop({
    name: "sweep_policies",
    intervalMs,
    maxBackoffMs: 30_000,
    idleMaxMs: Math.max(intervalMs, POLICY_IDLE_MAX_MS),
    round: async () => {
      const { judged, nextWindowAt } = await policies.runRound();
      if (judged > 0) return undefined;
      return nextWindowAt === null ? "idle" : { idleUntil: nextWindowAt.getTime() };
    },
    failed: (err, failures) => logger.warn("could not make policy sweeps this round", { failures, error: err instanceof Error ? err.message : String(err) }),
  });
  loop.start();
  return { stop: () => loop.stop(), wake: () => loop.wake() };
}

const earliest = (a: Date | null, b: Date): Date => (a === null || b < a ? b : a);
