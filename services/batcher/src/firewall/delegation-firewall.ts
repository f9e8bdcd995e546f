import type { Logger } from "@sweep/common";
import type { Db, Tx } from "@sweep/db";
import { recordEvents, type EventDraft } from "@sweep/lifecycle";
import type { QueueNames } from "@sweep/messaging";
import { depositAddressesCompromisedTotal } from "@sweep/metrics";
import { PollingLoop } from "@sweep/worker";
import type { ChainProvider } from "@sweep/rpc";
import { ZeroAddress, getAddress, hashAuthorization, recoverAddress, toBeHex, toQuantity } from "ethers";
import { scanBlock, type FirewallHit, type InventoryEntry, type WatchedTransaction } from "./block-scan";

export interface DelegationFirewallOptions {
  db: Db;
  names: QueueNames;
  chainId: number;
  provider: ChainProvider;
  logger: Logger;
  /** blocks read in one round at most, so a long catch-up does not hold a round for minutes */
  maxBlocksPerRound: number;
  /** called after a round wrote outbox messages */
  wrote?: () => void;
}

/** A block's transaction as the node sends it (eth_getBlockByNumber with full transactions). */
interface RawTransaction {
  hash: string;
  from: string;
  authorizationList?: Array<{ chainId: string; address: string; nonce: string; yParity: string; r: string; s: string }>;
}

/**
 * The delegation firewall of one chain: reads every block once, from where it stopped (a chain's
 * first round starts at the head: what came before is not judged), and for each block marks the
 * inventory's addresses that it saw delegate elsewhere or send a transaction `compromised`, with a
 * deposit_address.delegation_changed or deposit_address.activity event each, in one database
 * transaction with the block's cursor. The cursor only moves from the block it was at, so a second
 * batcher of the chain reading the same block records nothing twice.
 */
export class DelegationFirewall {
  constructor(private readonly options: DelegationFirewallOptions) {}

  /** Reads the blocks up to the head (or maxBlocksPerRound of them); returns how many it read. */
  async runOnce(): Promise<number> {
    const { provider, maxBlocksPerRound } = this.options;
    const head = await provider.getBlockNumber();
    let next = await this.cursor(head);
    let read = 0;
    while (next <= head && read < maxBlocksPerRound) {
      const block = (await provider.send("eth_getBlockByNumber", [toQuantity(next), true])) as { transactions: RawTransaction[] } | null;
      // A backend behind the one that told the head: the block next round.
      if (block === null) break;
      const transactions = block.transactions.map(watched);
      const hits = await this.confirmed(next, scanBlock(this.options.chainId, transactions, await this.inventoryOf(transactions)));
      if (!(await this.record(next, hits))) break;
      next += 1;
      read += 1;
    }
    return read;
  }

  /** The next block to read; at the head for a chain never read. */
  private async cursor(head: number): Promise<number> {
    const { db, chainId } = this.options;
    await db.chainWatchCursor.createMany({ data: [{ chainId, nextBlock: BigInt(head) }], skipDuplicates: true });
    return Number((await db.chainWatchCursor.findUniqueOrThrow({ where: { chainId } })).nextBlock);
  }

  /** The inventory's entries of the block's senders and authorities, one query (the block's cost). */
  private async inventoryOf(transactions: readonly WatchedTransaction[]): Promise<(address: string) => InventoryEntry[]> {
    const addresses = new Set<string>();
    for (const transaction of transactions) {
      addresses.add(transaction.from);
      for (const { authority } of transaction.authorizations) if (authority) addresses.add(authority);
    }
    if (addresses.size === 0) return () => [];
    const rows = await this.options.db.$queryRaw<Array<{ partnerId: string; address: string; delegation: string; delegate: string | null; gasWallet: string; delegates: string[] }>>`
      SELECT d.partner_id::text AS "partnerId", d.address, d.delegation::text AS delegation, d.delegate, g.address AS "gasWallet",
             COALESCE(array_agg(h.delegate) FILTER (WHERE h.delegate IS NOT NULL), '{}') AS delegates
        FROM deposit_addresses d
        JOIN gas_wallets g ON g.partner_id = d.partner_id
        LEFT JOIN hot_wallets h ON h.partner_id = d.partner_id AND h.chain_id = d.chain_id
       WHERE d.chain_id = ${this.options.chainId} AND d.address = ANY(${[...addresses]}::text[])
       GROUP BY d.partner_id, d.address, d.delegation, d.delegate, g.address`;
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
        const code = (await this.options.provider.send("eth_getCode", [hit.entry.address, toQuantity(blockNumber)])) as string;
        return code.toLowerCase() === (hit.target === ZeroAddress ? "0x" : `0xef0100${hit.target.slice(2).toLowerCase()}`);
      }),
    );
    return hits.filter((_, i) => applied[i]);
  }

  /** The block's hits and the cursor past it, in one transaction; false when another batcher read the block first. */
  private async record(blockNumber: number, hits: readonly FirewallHit[]): Promise<boolean> {
    const { db, names, chainId, logger } = this.options;
    const moved = await db.$transaction(async (tx) => {
      const advanced = await tx.chainWatchCursor.updateMany({ where: { chainId, nextBlock: BigInt(blockNumber) }, data: { nextBlock: BigInt(blockNumber + 1) } });
      if (advanced.count === 0) return false;
      if (hits.length > 0) await markCompromised(tx, names, chainId, blockNumber, hits);
      return true;
    });
    for (const hit of moved ? hits : []) {
      depositAddressesCompromisedTotal.inc({ chain_id: chainId, kind: hit.kind });
      logger.warn(
        hit.kind === "activity"
          ? "a deposit address sent a transaction: its key is used outside the service; marked compromised (docs/runbook.md, SweepDepositAddressCompromised)"
          : "a deposit address delegated elsewhere than the partner's delegates: marked compromised (docs/runbook.md, SweepDepositAddressCompromised)",
        { chainId, partnerId: hit.entry.partnerId, address: hit.entry.address, txHash: hit.txHash, blockNumber, ...(hit.kind === "delegation_changed" ? { sender: hit.sender, target: hit.target } : {}) },
      );
    }
    if (moved && hits.length > 0) this.options.wrote?.();
    return moved;
  }
}

async function markCompromised(tx: Tx, names: QueueNames, chainId: number, blockNumber: number, hits: readonly FirewallHit[]): Promise<void> {
  for (const hit of hits) {
    await tx.depositAddress.updateMany({
      where: { partnerId: hit.entry.partnerId, chainId, address: hit.entry.address },
      data: { delegation: "compromised", compromisedTxHash: hit.txHash, compromisedBlock: BigInt(blockNumber) },
    });
  }
  const events: EventDraft[] = hits.map((hit) => {
    const common = { chain_id: chainId, address: hit.entry.address, tx_hash: hit.txHash, block_number: blockNumber };
    const type = hit.kind === "activity" ? "deposit_address.activity" : "deposit_address.delegation_changed";
    const payload =
      hit.kind === "activity" ? common : { ...common, sender: hit.sender, ...(hit.entry.delegate ? { old_delegate: hit.entry.delegate } : {}), new_delegate: hit.target };
    return { partnerId: hit.entry.partnerId, type, payload, dedupeKey: `${type}:${chainId}:${hit.txHash}:${hit.entry.address}:${hit.entry.partnerId}` };
  });
  await recordEvents(tx, names, events);
}

/** A raw transaction as the scan reads it: its sender and its authorities. */
function watched(transaction: RawTransaction): WatchedTransaction {
  return {
    hash: transaction.hash,
    from: getAddress(transaction.from),
    authorizations: (transaction.authorizationList ?? []).map((authorization) => ({ authority: authorityOf(authorization), chainId: BigInt(authorization.chainId), address: getAddress(authorization.address) })),
  };
}

/** Who signed an authorization; null when no key could have (a malformed signature the chain skips). */
function authorityOf(authorization: NonNullable<RawTransaction["authorizationList"]>[number]): string | null {
  try {
    const digest = hashAuthorization({ address: authorization.address, nonce: BigInt(authorization.nonce), chainId: BigInt(authorization.chainId) });
    // The node sends r and s as quantities (leading zeros dropped).
    return recoverAddress(digest, { r: toBeHex(BigInt(authorization.r), 32), s: toBeHex(BigInt(authorization.s), 32), yParity: Number(authorization.yParity) as 0 | 1 });
  } catch {
    return null;
  }
}

/** The firewall's loop of a chain: a round every half block, at once again while behind the head. */
export function startDelegationFirewall(options: DelegationFirewallOptions & { blockTimeMs: number }): { stop(): Promise<void> } {
  const firewall = new DelegationFirewall(options);
  const logger = options.logger.child({ chainId: options.chainId, loop: "delegation firewall" });
  const loop = new PollingLoop({
    name: "delegation_firewall",
    intervalMs: Math.max(100, Math.floor(options.blockTimeMs / 2)),
    maxBackoffMs: 30_000,
    round: async () => ((await firewall.runOnce()) >= options.maxBlocksPerRound ? "again" : undefined),
    failed: (err, failures) => logger.warn("could not read the chain's blocks this round", { failures, error: err instanceof Error ? err.message : String(err) }),
  });
  loop.start();
  return { stop: () => loop.stop() };
}
