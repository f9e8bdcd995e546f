import { Prisma, type Tx } from "@sweep/db";
import { outboxDraft, type QueueNames } from "@sweep/messaging";
import { batchSize, type PendingMetrics } from "@sweep/metrics";
import { recordEvents, type EventDraft } from "./events";
import { correctedFrom, fromStates, type Mover } from "./transitions";
import { workKinds, type ChangedItem, type DoneStates, type SettledColumns, type WorkKind, type WorkScope } from "./work-kinds";

/**
 * The changes of a sweep's or a revocation's state, one function each: the update guarded by the
 * transition table, the events, the final-state metric and the wakes together, in the caller's
 * database transaction, in a fixed number of statements however many items change. Only the items
 * still in a state the change starts from change, so a redelivered message changes, records and
 * counts nothing twice. Metrics go to the caller's PendingMetrics, applied once it committed.
 */

/** queued → processing: the items claimed into a new open batch, announced to the chain-sender by batch.ready. */
export async function claimIntoBatch(
  tx: Tx,
  names: QueueNames,
  metrics: PendingMetrics,
  kind: WorkKind,
  claim: { chainId: number; batchId: string; ids: readonly string[] },
): Promise<void> {
  const { table } = workKinds[kind];
  const claimed = await tx.$executeRaw`
    UPDATE ${table} SET status = 'processing', batch_id = ${claim.batchId}::uuid, attempts = attempts + 1, reason = NULL, updated_at = now()
     WHERE id = ANY(${[...claim.ids]}::uuid[]) AND status = ANY(${fromStates(kind, "processing")}::"WorkStatus"[])`;
  // The caller locked the rows: anything else is a bug, not a race.
  if (claimed !== claim.ids.length) throw new Error(`claimed ${claimed} of ${claim.ids.length} ${kind}s`);
  await tx.outboxMessage.create({ data: outboxDraft("batch.ready", { batchId: claim.batchId, chainId: claim.chainId }, names) });
  metrics.observe(batchSize, { chain_id: claim.chainId, purpose: kind }, claim.ids.length);
}

/** The changed rows in the order their changes were given (RETURNING keeps none), so their events are recorded in that order. */
function inGivenOrder<T extends { id: string }>(rows: T[], given: ReadonlyArray<{ id: string }>): T[] {
  const position = new Map(given.map((change, i) => [change.id, i]));
  return rows.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
}

export interface Rejection {
  id: string;
  reason: string;
}

/**
 * → rejected, by the batcher's checks (queued) or the chain-sender's simulation (processing, only in
 * `batchId`): each with its reason and event. Returns the ids that changed, in the order given.
 */
export async function rejectWork(
  tx: Tx,
  names: QueueNames,
  metrics: PendingMetrics,
  kind: WorkKind,
  scope: WorkScope & { by: Mover; batchId?: string },
  rejections: readonly Rejection[],
): Promise<string[]> {
  if (rejections.length === 0) return [];
  const rules = workKinds[kind];
  const from = fromStates(kind, "rejected", scope.by);
  const inBatch = scope.batchId === undefined ? Prisma.empty : Prisma.sql`AND w.batch_id = ${scope.batchId}::uuid`;
  const returned = await tx.$queryRaw<Array<{ id: string; account: string; reason: string }>>`
    UPDATE ${rules.table} AS w SET status = 'rejected', reason = v.reason, next_attempt_at = NULL, updated_at = now()
      FROM unnest(${rejections.map((r) => r.id)}::uuid[], ${rejections.map((r) => r.reason)}::text[]) AS v(id, reason)
     WHERE w.id = v.id AND w.status = ANY(${from}::"WorkStatus"[]) ${inBatch}
 RETURNING w.id::text AS id, w.account, v.reason`;
  if (returned.length === 0) return [];
  const changed = inGivenOrder(returned, rejections);
  await recordEvents(tx, names, changed.map((item): EventDraft => ({ partnerId: scope.partnerId, type: rules.events.rejected, subjectId: item.id })));
  for (const item of changed) metrics.inc(rules.finalCounter, { chain_id: scope.chainId, status: "rejected", reason: item.reason });
  await rules.wake(tx, names, scope, changed.map((item) => ({ ...item, ended: true })), from.includes("processing"));
  return changed.map((item) => item.id);
}

/**
 * processing → queued, by the chain-sender: items it took out of their batch before a transaction
 * the node accepted carried them (the node's fee cap, an authority it holds reserved, a base fee
 * over their fee ceiling). Not an attempt: the claim's count is taken back, the reason is `reason`
 * (none by default; waiting_for_gas_price for the base fee), and they are due at `dueAt`. Returns
 * the ids that changed.
 */
export async function returnToQueue(
  tx: Tx,
  names: QueueNames,
  kind: WorkKind,
  scope: WorkScope & { batchId: string },
  ids: readonly string[],
  dueAt: Date,
  reason: string | null = null,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rules = workKinds[kind];
  const changed = await tx.$queryRaw<Array<{ id: string; account: string }>>`
    UPDATE ${rules.table} SET status = 'queued', batch_id = NULL, attempts = GREATEST(attempts - 1, 0), reason = ${reason},
           next_attempt_at = ${dueAt}, updated_at = now()
     WHERE id = ANY(${[...ids]}::uuid[]) AND batch_id = ${scope.batchId}::uuid AND status = ANY(${fromStates(kind, "queued", "chain-sender")}::"WorkStatus"[])
 RETURNING id::text AS id, account`;
  if (changed.length > 0) await rules.wake(tx, names, scope, changed.map((item) => ({ ...item, ended: false })), true);
  return changed.map((item) => item.id);
}

/** What a settlement does to one item of the batch. */
export interface WorkSettlement<K extends WorkKind> {
  id: string;
  /** the item's kind of done (swept, revoked), failed, or back in the queue after a failed attempt */
  status: DoneStates[K] | "failed" | "queued";
  reason: string | null;
  /** when a queued item may be tried again */
  nextAttemptAt: Date | null;
  /** what its transaction did for it; null when none carried it (the columns stay as they are) */
  onChain: SettledColumns[K]["onChain"] | null;
  /** what only an item that went through keeps (a sweep's amount and fee) */
  done: SettledColumns[K]["done"] | null;
}

/**
 * processing → done, failed or queued: the outcomes of one batch's items, by the ledger. Back in the
 * queue an item belongs to no batch; failed it keeps the batch it failed in. Final states record
 * their events. Returns the ids that changed.
 */
export async function settleWork<K extends WorkKind>(
  tx: Tx,
  names: QueueNames,
  metrics: PendingMetrics,
  kind: K,
  scope: WorkScope & { batchId: string },
  settlements: ReadonlyArray<WorkSettlement<K>>,
): Promise<Set<string>> {
  if (settlements.length === 0) return new Set();
  const rules = workKinds[kind];
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  const columnValues = rules.columns.map(({ part, field }) => settlements.map((s) => text((s[part] as Record<string, unknown> | null)?.[field])));
  const sets = rules.columns.map(({ part, column, cast }) => {
    const [col, given] = [Prisma.raw(column), Prisma.raw(part === "onChain" ? "v.on_chain" : "v.done")];
    return Prisma.sql`${col} = CASE WHEN ${given} THEN v.${col}::${Prisma.raw(cast)} ELSE w.${col} END`;
  });
  const arrays = columnValues.map((values) => Prisma.sql`${values}::text[]`);
  const columnNames = rules.columns.map(({ column }) => Prisma.raw(column));

  const returned = await tx.$queryRaw<Array<{ id: string; account: string; status: string; reason: string | null }>>`
    UPDATE ${rules.table} AS w
       SET status = v.status::"WorkStatus", reason = v.reason, next_attempt_at = v.next_attempt_at::timestamptz,
           batch_id = CASE WHEN v.status = 'queued' THEN NULL ELSE w.batch_id END,
           ${Prisma.join(sets)},
           updated_at = now()
      FROM unnest(${settlements.map((s) => s.id)}::uuid[], ${settlements.map((s) => s.status)}::text[], ${settlements.map((s) => s.reason)}::text[],
                  ${settlements.map((s) => s.nextAttemptAt?.toISOString() ?? null)}::text[], ${settlements.map((s) => s.onChain !== null)}::boolean[],
                  ${settlements.map((s) => s.done !== null)}::boolean[], ${Prisma.join(arrays)})
           AS v(id, status, reason, next_attempt_at, on_chain, done, ${Prisma.join(columnNames)})
     WHERE w.id = v.id AND w.batch_id = ${scope.batchId}::uuid AND w.status = ANY(${fromStates(kind, rules.done)}::"WorkStatus"[])
 RETURNING w.id::text AS id, w.account, v.status, v.reason`;
  if (returned.length === 0) return new Set();
  const changed = inGivenOrder(returned, settlements);

  const ended = changed.filter((item) => item.status !== "queued");
  await recordEvents(
    tx,
    names,
    ended.map((item): EventDraft => ({ partnerId: scope.partnerId, type: item.status === "failed" ? rules.events.failed : rules.events.done, subjectId: item.id })),
  );
  for (const item of ended) metrics.inc(rules.finalCounter, { chain_id: scope.chainId, status: item.status, reason: item.reason ?? "none" });
  await rules.wake(tx, names, scope, changed.map((item): ChangedItem => ({ id: item.id, account: item.account, ended: item.status !== "queued" })), true);
  return new Set(changed.map((item) => item.id));
}

/**
 * queued, rejected or failed → processing, by the chain-sender (a correction): the items of a batch
 * whose given-up transaction was mined after all, taken back into it to be settled from its
 * receipt. Those its failure sent back to the queue (in no batch since: queued, or rejected by the
 * batcher's checks) or failed when their attempts ran out (still in it); one rejected in it was
 * dropped by the simulation, never carried. Returns each with the state it left; the final-state
 * counters' corrections are the caller's, once it committed.
 */
export async function takeBackIntoBatch(tx: Tx, kind: WorkKind, batchId: string, ids: readonly string[]): Promise<Array<{ id: string; was: string; reason: string | null }>> {
  if (ids.length === 0) return [];
  const { table } = workKinds[kind];
  return tx.$queryRaw<Array<{ id: string; was: string; reason: string | null }>>`
    WITH back AS (
      SELECT id, status, reason FROM ${table}
       WHERE id = ANY(${[...ids]}::uuid[]) AND status = ANY(${correctedFrom(kind, "processing")}::"WorkStatus"[])
         AND ((batch_id IS NULL AND status <> 'failed') OR (batch_id = ${batchId}::uuid AND status = 'failed'))
         FOR UPDATE)
    UPDATE ${table} AS w SET status = 'processing', batch_id = ${batchId}::uuid, reason = NULL, next_attempt_at = NULL, updated_at = now()
      FROM back WHERE w.id = back.id
 RETURNING w.id::text AS id, back.status::text AS was, back.reason`;
}
