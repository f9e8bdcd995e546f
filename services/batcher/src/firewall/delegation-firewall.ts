import type { Logger } from "@sweep/common";
import type { Db, Tx } from "@sweep/db";
import { confirmDeposits, recordEvents, type EventDraft } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";
import { depositAddressesCompromisedTotal, depositsConfirmedTotal, depositsRemovedTotal, firewallBlocksBehind } from "@sweep/metrics";
import { PollingLoop } from "@sweep/worker";
import type { ChainProvider } from "@sweep/rpc";
import { recoverAuthorizationSigner } from "@sweep/chains";
import { ZeroAddress, getAddress, toBeHex, toQuantity } from "ethers";
import { delegationOf } from "../pre-send-checks";
import { scanBlock, type FirewallHit, type InventoryEntry, type WatchedTransaction } from "./block-scan";
import { removeDeposits, storeDeposits, type BlockDeposit } from "./deposit-records";
import { TRANSFER_TOPIC, depositRecipients, findDeposits, tokensByAddress, type ListedToken, type RawLog, type ValueTransaction } from "./deposit-scan";

export interface DelegationFirewallOptions {
  db: Db;
  names: QueueNames;
  chainId: number;
  provider: ChainProvider;
  logger: Logger;
  /** blocks read in one round at most, so a long catch-up does not hold a round for minutes */
  maxBlocksPerRound: number;
  /** the chain's listed tokens: their Transfer logs to the inventory are deposits */
  tokens: readonly ListedToken[];
  nativeTicker: string;
  /** the newest block final at `head` (ChainClient.finalBlock): deposits at or below it are confirmed */
  finalBlock(head: number): Promise<number>;
  /** called after a round wrote outbox messages */
  wrote?: () => void;
  /** called after a round confirmed deposits (the chain's sweep policies look at them then) */
  depositsConfirmed?: () => void;
}

/** Blocks whose hashes the firewall keeps: a reorg deeper than this is followed only this far back. */
const REORG_WINDOW = 128;
/** Blocks fetched at once and recorded in one database transaction while catching up. */
const BLOCKS_PER_WRITE = 20;

/** A hit and the block it was seen in. */
type BlockHit = FirewallHit & { blockNumber: number };

/** A block of a run as the firewall and deposit detection read it. */
interface ReadBlock {
  number: number;
  hash: string;
  transactions: Array<WatchedTransaction & ValueTransaction>;
  /** its listed tokens' Transfer logs */
  logs: RawLog[];
}

/** A block as the node sends it (eth_getBlockByNumber with full transactions). */
interface RawBlock {
  hash: string;
  parentHash: string;
  transactions: RawTransaction[];
}

/** A block's transaction as the node sends it (eth_getBlockByNumber with full transactions). */
interface RawTransaction {
  hash: string;
  from: string;
  to: string | null;
  value: string;
  authorizationList?: Array<{ chainId: string; address: string; nonce: string; yParity: string; r: string; s: string }>;
}

/**
 * The delegation firewall of one chain: reads every block once, from where it stopped (a chain's
 * first round starts at the head: what came before is not judged), and for each block marks the
 * inventory's addresses that it saw delegate elsewhere or send a transaction `compromised`, with a
 * deposit_address.delegation_changed or deposit_address.activity event each, in one database
 * transaction with the block's cursor. The cursor only moves from the block it was at, so a second
 * batcher of the chain reading the same block records nothing twice. A block that does not follow
 * the one read before it is a reorg: the firewall goes back to where the chains meet, puts back the
 * addresses that the removed blocks marked, and reads the new blocks (an event already sent for a
 * transaction mined again is not sent twice).
 *
 * The same block runs detect deposits to the inventory: the listed tokens' Transfer logs of each block
 * (read by topic and token, for the block's hash: a backend that lacks the block says so instead of
 * answering no logs) and the transactions sending the native coin (that succeeded, by their receipt),
 * stored pending with the block, confirmed with a deposit.detected event once the chain's confirmations
 * reach them. A reorg that removes a pending deposit's block removes the deposit.
 */
export class DelegationFirewall {
  /** the cursor as this process last moved it: a round with no new block asks nothing of the database */
  private known?: number;
  /** the last block this process read, whose hash the next block's parent must be */
  private lastRead?: { number: number; hash: string };
  private readonly tokens: ReadonlyMap<string, ListedToken>;

  constructor(private readonly options: DelegationFirewallOptions) {
    this.tokens = tokensByAddress(options.tokens);
  }

  /** Reads the blocks up to the head (or maxBlocksPerRound of them); returns how many it read. */
  async runOnce(): Promise<number> {
    const { provider, maxBlocksPerRound, chainId } = this.options;
    const head = await provider.getBlockNumber();
    if (this.known !== undefined && this.known > head) {
      firewallBlocksBehind.set({ chain_id: chainId }, 0);
      return 0;
    }
    let next = await this.cursor(head);
    let read = 0;
    let final: number | undefined;
    while (next <= head && read < maxBlocksPerRound) {
      const last = Math.min(head, next + BLOCKS_PER_WRITE - 1, next + maxBlocksPerRound - read - 1);
      const fetched = await Promise.all(Array.from({ length: last - next + 1 }, (_, i) => provider.send("eth_getBlockByNumber", [toQuantity(next + i), true]) as Promise<RawBlock | null>));
      const blocks = followingEachOther(fetched);
      // A backend behind the one that told the head: the blocks next round.
      if (blocks.length === 0) break;
      const parent = this.lastRead?.number === next - 1 ? this.lastRead.hash : await this.readHash(next - 1);
      if (parent !== null && parent !== blocks[0]!.parentHash) {
        this.forget();
        if (!(await this.rewind(next, parent))) break;
        next = await this.cursor(head);
        continue;
      }
      const run = await this.withTransferLogs(blocks.map((block, i) => ({ number: next + i, hash: block.hash, transactions: block.transactions.map(watched), logs: [] })));
      // A backend that lacks the first block's logs yet: the blocks next round.
      if (run.length === 0) break;
      const entriesOf = await this.inventoryOf(run);
      const hits = (await Promise.all(run.map(async (block) => (await this.confirmed(block.number, scanBlock(chainId, block.transactions, entriesOf))).map((hit) => ({ ...hit, blockNumber: block.number }))))).flat();
      const deposits = await this.depositsOf(run, entriesOf);
      if (deposits === null) break;
      final ??= await this.options.finalBlock(head);
      // Another batcher moved the cursor: read where it is next round.
      const quiet = hits.length === 0 && deposits.length === 0 ? await this.recordQuiet(next, run, final) : "deposits_due";
      if (quiet === "lost" || (quiet === "deposits_due" && !(await this.record(next, run, hits, deposits, final)))) {
        this.forget();
        break;
      }
      const tip = run[run.length - 1]!;
      this.lastRead = { number: tip.number, hash: tip.hash };
      next += run.length;
      this.known = next;
      read += run.length;
    }
    firewallBlocksBehind.set({ chain_id: chainId }, Math.max(0, head + 1 - next));
    return read;
  }

  /** What this process knew of the cursor and the last block: read from the database again. */
  private forget(): void {
    this.known = undefined;
    this.lastRead = undefined;
  }

  /** The hash of a block as the firewall read it; null outside the window or before the first. */
  private async readHash(blockNumber: number): Promise<string | null> {
    const row = await this.options.db.watchedBlock.findUnique({ where: { chainId_number: { chainId: this.options.chainId, number: BigInt(blockNumber) } }, select: { hash: true } });
    return row?.hash ?? null;
  }

  /**
   * After a reorg seen at block `next`: the newest block read that the chain still has (its hash
   * unchanged), or the oldest kept when the reorg is deeper than the window; then, in one
   * transaction, the cursor back past it, the later blocks forgotten, and the addresses those blocks
   * marked put back as they were. False when another batcher moved the cursor, or read block
   * `next - 1` again, meanwhile (its hash is no longer `stale`).
   */
  private async rewind(next: number, stale: string): Promise<boolean> {
    const { db, chainId, provider, logger } = this.options;
    const kept = await db.watchedBlock.findMany({ where: { chainId, number: { lt: BigInt(next) } }, orderBy: { number: "desc" }, select: { number: true, hash: true } });
    let meet = kept.length > 0 ? Number(kept[kept.length - 1]!.number) - 1 : next - 1;
    for (const { number, hash } of kept) {
      const canonical = (await provider.send("eth_getBlockByNumber", [toQuantity(Number(number)), false])) as { hash: string } | null;
      if (canonical?.hash === hash) {
        meet = Number(number);
        break;
      }
    }
    const moved = await db.$transaction(async (tx) => {
      const still = await tx.watchedBlock.findUnique({ where: { chainId_number: { chainId, number: BigInt(next - 1) } }, select: { hash: true } });
      if (still !== null && still.hash !== stale) return null;
      const back = await tx.chainWatchCursor.updateMany({ where: { chainId, nextBlock: BigInt(next) }, data: { nextBlock: BigInt(meet + 1) } });
      if (back.count === 0) return null;
      await tx.watchedBlock.deleteMany({ where: { chainId, number: { gt: BigInt(meet) } } });
      const restored = await tx.$executeRaw`
        UPDATE deposit_addresses SET delegation = compromised_from, compromised_from = NULL, compromised_tx_hash = NULL, compromised_block = NULL, updated_at = now()
         WHERE chain_id = ${chainId} AND delegation = 'compromised' AND compromised_from IS NOT NULL AND compromised_block > ${meet}`;
      return { restored, ...(await removeDeposits(tx, chainId, meet)) };
    });
    if (moved === null) return false;
    depositsRemovedTotal.inc({ chain_id: chainId }, moved.removed);
    logger.warn("a reorg replaced blocks the delegation firewall had read: reading them again, the addresses they marked put back, their pending deposits removed", {
      chainId,
      from: meet + 1,
      to: next - 1,
      restored: moved.restored,
      depositsRemoved: moved.removed,
    });
    if (moved.confirmedRemoved > 0) {
      logger.error("a reorg deeper than the chain's confirmations removed blocks with confirmed deposits: their deposit.detected was sent; check them on the chain (docs/runbook.md)", {
        chainId,
        from: meet + 1,
        deposits: moved.confirmedRemoved,
      });
    }
    return true;
  }

  /** The next block to read; at the head for a chain never read. */
  private async cursor(head: number): Promise<number> {
    if (this.known !== undefined) return this.known;
    const { db, chainId } = this.options;
    await db.chainWatchCursor.createMany({ data: [{ chainId, nextBlock: BigInt(head) }], skipDuplicates: true });
    return Number((await db.chainWatchCursor.findUniqueOrThrow({ where: { chainId } })).nextBlock);
  }

  /** The inventory's entries of the run's senders, authorities and deposits' recipients, one query (the blocks' cost). */
  private async inventoryOf(run: readonly ReadBlock[]): Promise<(address: string) => InventoryEntry[]> {
    const addresses = new Set<string>();
    for (const block of run) {
      for (const transaction of block.transactions) {
        addresses.add(transaction.from);
        for (const { authority } of transaction.authorizations) if (authority) addresses.add(authority);
      }
      for (const recipient of depositRecipients(block.transactions, block.logs, this.tokens)) addresses.add(recipient);
    }
    if (addresses.size === 0) return () => [];
    const rows = await this.options.db.$queryRaw<Array<{ partnerId: string; address: string; delegate: string | null; gasWallet: string; delegates: string[] }>>`
      SELECT d.partner_id::text AS "partnerId", d.address, d.delegate, g.address AS "gasWallet",
             COALESCE(array_agg(h.delegate) FILTER (WHERE h.delegate IS NOT NULL), '{}') AS delegates
        FROM deposit_addresses d
        JOIN gas_wallets g ON g.partner_id = d.partner_id
        LEFT JOIN hot_wallets h ON h.partner_id = d.partner_id AND h.chain_id = d.chain_id
       WHERE d.chain_id = ${this.options.chainId} AND d.address = ANY(${[...addresses]}::text[])
       GROUP BY d.partner_id, d.address, d.delegate, g.address`;
    const byAddress = new Map<string, InventoryEntry[]>();
    for (const row of rows) byAddress.set(row.address, [...(byAddress.get(row.address) ?? []), { ...row, delegates: new Set(row.delegates) }]);
    return (address) => byAddress.get(address) ?? [];
  }

  /**
   * The hits whose delegation the chain applied: the authority's code at the block is the target's
   * designator (none for the zero address). An authorization with a stale nonce changed nothing.
   */
  private async confirmed(blockNumber: number, hits: readonly FirewallHit[]): Promise<FirewallHit[]> {
    const applied = await Promise.all(
      hits.map(async (hit) => {
        if (hit.kind === "activity") return true;
        const delegation = delegationOf((await this.options.provider.send("eth_getCode", [hit.entry.address, toQuantity(blockNumber)])) as string);
        return hit.target === ZeroAddress ? delegation.kind === "none" : delegation.kind === "delegated" && delegation.to === hit.target;
      }),
    );
    return hits.filter((_, i) => applied[i]);
  }

  /**
   * The blocks with their listed tokens' Transfer logs, up to the first whose logs the node cannot
   * give: asked by the block's hash, a backend behind it fails instead of answering none. One call a
   * block, by topic and token, filtered here (a filter on recipients would not scale to the inventory).
   */
  private async withTransferLogs(blocks: ReadBlock[]): Promise<ReadBlock[]> {
    const tokenAddresses = [...this.tokens.values()].map((token) => token.address);
    if (tokenAddresses.length === 0) return blocks;
    const logs = await Promise.all(
      blocks.map(async (block) => {
        // A block without transactions has no logs: at rest, most blocks ask nothing more of the node.
        if (block.transactions.length === 0) return [];
        try {
          const answer = (await this.options.provider.send("eth_getLogs", [{ blockHash: block.hash, address: tokenAddresses, topics: [TRANSFER_TOPIC] }])) as RawLog[];
          return answer.every((log) => log.blockHash.toLowerCase() === block.hash.toLowerCase()) ? answer : null;
        } catch (err) {
          this.options.logger.debug("the node gave no logs for a block yet: read again next round", { chainId: this.options.chainId, block: block.number, error: err instanceof Error ? err.message : String(err) });
          return null;
        }
      }),
    );
    const available = logs.indexOf(null);
    return blocks.slice(0, available === -1 ? blocks.length : available).map((block, i) => ({ ...block, logs: logs[i]! }));
  }

  /**
   * The run's deposits to the inventory; native ones only where their transaction succeeded (its
   * receipt, in this block). Null when a receipt is not to be had yet: the run is read again next round.
   */
  private async depositsOf(run: readonly ReadBlock[], entriesOf: (address: string) => InventoryEntry[]): Promise<BlockDeposit[] | null> {
    const found = run.flatMap((block) => findDeposits(block, this.tokens, this.options.nativeTicker, entriesOf).map((deposit) => ({ ...deposit, blockNumber: block.number, blockHash: block.hash })));
    const blockOfNative = new Map(found.filter((deposit) => deposit.tokenAddress === null).map((deposit) => [deposit.txHash, deposit.blockHash]));
    const nativeTransactions = [...blockOfNative.keys()];
    const receipts = await Promise.all(
      nativeTransactions.map(async (hash) => (await this.options.provider.send("eth_getTransactionReceipt", [hash])) as { blockHash: string; status: string } | null),
    );
    const succeeded = new Set<string>();
    for (const [i, hash] of nativeTransactions.entries()) {
      const receipt = receipts[i];
      const block = blockOfNative.get(hash)!;
      if (!receipt || receipt.blockHash.toLowerCase() !== block.toLowerCase()) return null;
      if (BigInt(receipt.status) === 1n) succeeded.add(hash);
    }
    return found.filter((deposit) => deposit.tokenAddress !== null || succeeded.has(deposit.txHash));
  }

  /**
   * A run with no hits and no deposits (at rest, every block): its hashes and the cursor past it in one
   * statement, as record() would write them, unless pending deposits are final now: "deposits_due",
   * and record() writes the run with their confirmation. "lost" when another batcher read it first.
   */
  private async recordQuiet(first: number, run: ReadonlyArray<{ number: number; hash: string }>, final: number): Promise<"moved" | "lost" | "deposits_due"> {
    const { db, chainId } = this.options;
    const last = first + run.length - 1;
    const prune = run.some((block) => block.number % 32 === 0);
    const [row] = await db.$queryRaw<Array<{ moved: boolean; depositsDue: boolean }>>`
      WITH due AS (
        SELECT EXISTS (SELECT 1 FROM deposits WHERE chain_id = ${chainId} AND status = 'pending' AND block_number <= ${BigInt(Math.min(final, last))}) AS deposits
      ), moved AS (
        UPDATE chain_watch_cursors SET next_block = ${BigInt(last + 1)}, updated_at = now()
         WHERE chain_id = ${chainId} AND next_block = ${BigInt(first)} AND NOT (SELECT deposits FROM due)
        RETURNING chain_id
      ), stored AS (
        INSERT INTO watched_blocks (chain_id, number, hash)
        SELECT ${chainId}, b.number, b.hash FROM unnest(${run.map((block) => BigInt(block.number))}::bigint[], ${run.map((block) => block.hash)}::text[]) AS b(number, hash)
         WHERE EXISTS (SELECT 1 FROM moved)
        ON CONFLICT (chain_id, number) DO UPDATE SET hash = EXCLUDED.hash
      ), dropped AS (
        DELETE FROM watched_blocks
         WHERE chain_id = ${chainId} AND EXISTS (SELECT 1 FROM moved) AND (number > ${BigInt(last)} OR (${prune} AND number <= ${BigInt(last - REORG_WINDOW)}))
      )
      SELECT EXISTS (SELECT 1 FROM moved) AS moved, (SELECT deposits FROM due) AS "depositsDue"`;
    if (row!.depositsDue) return "deposits_due";
    return row!.moved ? "moved" : "lost";
  }

  /**
   * A run of blocks' hits and deposits, their hashes and the cursor past them, in one transaction,
   * with the deposits the final block now confirms; false when another batcher read them first.
   */
  private async record(first: number, run: ReadonlyArray<{ number: number; hash: string }>, hits: readonly BlockHit[], deposits: readonly BlockDeposit[], final: number): Promise<boolean> {
    const { db, names, chainId, logger } = this.options;
    const last = first + run.length - 1;
    let confirmed: Array<{ token: string }> = [];
    const moved = await db.$transaction(async (tx) => {
      const advanced = await tx.chainWatchCursor.updateMany({ where: { chainId, nextBlock: BigInt(first) }, data: { nextBlock: BigInt(last + 1) } });
      if (advanced.count === 0) return false;
      await tx.watchedBlock.deleteMany({ where: { chainId, number: { gte: BigInt(first) } } });
      await tx.watchedBlock.createMany({ data: run.map((block) => ({ chainId, number: BigInt(block.number), hash: block.hash })) });
      // The hashes past the window go every 32 blocks, not at each block.
      if (run.some((block) => block.number % 32 === 0)) await tx.watchedBlock.deleteMany({ where: { chainId, number: { lte: BigInt(last - REORG_WINDOW) } } });
      if (hits.length > 0) await markCompromised(tx, names, chainId, hits);
      await storeDeposits(tx, chainId, deposits);
      // Final as far as this run read: a block above `last` is not known to follow these.
      confirmed = await confirmDeposits(tx, names, chainId, Math.min(final, last));
      return true;
    });
    for (const deposit of moved ? confirmed : []) depositsConfirmedTotal.inc({ chain_id: chainId, token: deposit.token });
    if (moved && deposits.length > 0) logger.info("deposits seen", { chainId, from: first, to: last, deposits: deposits.length });
    for (const hit of moved ? hits : []) {
      depositAddressesCompromisedTotal.inc({ chain_id: chainId, kind: hit.kind });
      logger.warn(
        hit.kind === "activity"
          ? "a deposit address sent a transaction: its key is used outside the service; marked compromised (docs/runbook.md, SweepDepositAddressCompromised)"
          : "a deposit address delegated elsewhere than the partner's delegates: marked compromised (docs/runbook.md, SweepDepositAddressCompromised)",
        {
          chainId,
          partnerId: hit.entry.partnerId,
          address: hit.entry.address,
          txHash: hit.txHash,
          blockNumber: hit.blockNumber,
          ...(hit.kind === "delegation_changed" ? { sender: hit.sender, target: hit.target } : {}),
        },
      );
    }
    if (moved && hits.length + confirmed.length > 0) this.options.wrote?.();
    if (moved && confirmed.length > 0) this.options.depositsConfirmed?.();
    return moved;
  }
}

/** The blocks fetched up to the first the node did not have, and up to the first that does not follow the one before it (a reorg between the reads). */
function followingEachOther(fetched: ReadonlyArray<RawBlock | null>): RawBlock[] {
  const run: RawBlock[] = [];
  for (const block of fetched) {
    if (block === null || (run.length > 0 && block.parentHash !== run[run.length - 1]!.hash)) break;
    run.push(block);
  }
  return run;
}

async function markCompromised(tx: Tx, names: QueueNames, chainId: number, hits: readonly BlockHit[]): Promise<void> {
  for (const hit of hits) {
    // The first mark stands: what it was before, and the block a reorg must remove to put it back (a later mark's block
    // is above any point a reorg of the first goes back to, so it is read again anyway). The right side reads the row as it was.
    await tx.$executeRaw`
      UPDATE deposit_addresses
         SET compromised_from = CASE WHEN delegation = 'compromised' THEN compromised_from ELSE delegation END,
             compromised_tx_hash = CASE WHEN delegation = 'compromised' THEN compromised_tx_hash ELSE ${hit.txHash} END,
             compromised_block = CASE WHEN delegation = 'compromised' THEN compromised_block ELSE ${BigInt(hit.blockNumber)} END,
             delegation = 'compromised', updated_at = now()
       WHERE partner_id = ${hit.entry.partnerId}::uuid AND chain_id = ${chainId} AND address = ${hit.entry.address}`;
  }
  const events: EventDraft[] = hits.map((hit) => {
    const common = { chain_id: chainId, address: hit.entry.address, tx_hash: hit.txHash, block_number: hit.blockNumber };
    const type = hit.kind === "activity" ? "deposit_address.activity" : "deposit_address.delegation_changed";
    const payload =
      hit.kind === "activity" ? common : { ...common, sender: hit.sender, ...(hit.entry.delegate ? { old_delegate: hit.entry.delegate } : {}), new_delegate: hit.target };
    return { partnerId: hit.entry.partnerId, type, payload, dedupeKey: `${type}:${chainId}:${hit.txHash}:${hit.entry.address}:${hit.entry.partnerId}` };
  });
  await recordEvents(tx, names, events);
}

/** A raw transaction as the scan reads it: its sender and its authorities. */
function watched(transaction: RawTransaction): WatchedTransaction & ValueTransaction {
  return {
    hash: transaction.hash,
    from: getAddress(transaction.from),
    to: transaction.to ? getAddress(transaction.to) : null,
    value: BigInt(transaction.value),
    authorizations: (transaction.authorizationList ?? []).map((authorization) => ({ authority: authorityOf(authorization), chainId: BigInt(authorization.chainId), address: getAddress(authorization.address) })),
  };
}

/** Who signed an authorization (the API's recovery, in libsecp256k1); null when no key could have (a malformed signature the chain skips). */
function authorityOf(authorization: NonNullable<RawTransaction["authorizationList"]>[number]): string | null {
  const yParity = Number(authorization.yParity);
  if (yParity !== 0 && yParity !== 1) return null;
  try {
    // The node sends r and s as quantities (leading zeros dropped).
    return recoverAuthorizationSigner(
      { address: authorization.address, nonce: BigInt(authorization.nonce), chainId: BigInt(authorization.chainId) },
      { r: toBeHex(BigInt(authorization.r), 32), s: toBeHex(BigInt(authorization.s), 32), yParity },
    );
  } catch {
    return null;
  }
}

/** The firewall's loop of a chain: a round every block, at once again while behind the head. */
export function startDelegationFirewall(options: DelegationFirewallOptions & { blockTimeMs: number }): { stop(): Promise<void> } {
  const firewall = new DelegationFirewall(options);
  const logger = options.logger.child({ chainId: options.chainId, loop: "delegation firewall" });
  const loop = new PollingLoop({
    name: "delegation_firewall",
    intervalMs: Math.max(100, options.blockTimeMs),
    maxBackoffMs: 30_000,
    round: async () => ((await firewall.runOnce()) >= options.maxBlocksPerRound ? "again" : undefined),
    failed: (err, failures) => logger.warn("could not read the chain's blocks this round", { failures, error: err instanceof Error ? err.message : String(err) }),
  });
  loop.start();
  return { stop: () => loop.stop() };
}
