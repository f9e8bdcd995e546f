/** Past this many entries, expired ones are dropped on the next insert: one per gas wallet and chain. */
const PRUNE_ABOVE = 10_000;

interface Entry {
  value: Promise<bigint>;
  /** Infinity while the read is under way: requests meanwhile share it */
  expiresAt: number;
}

/**
 * GET /v1/balance's node reads, kept per chain and gas wallet for about a block's time: the
 * balance cannot change between blocks, and a partner polling its balance should not cost a
 * JSON-RPC call per request. Concurrent requests share one read. A failed read is not kept, so
 * a node that fails shows chain_unavailable and is asked again by the next request.
 */
export class BalanceCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    /** milliseconds a read stays fresh, per chain; a chain absent or at 0 is read every time */
    private readonly ttlMs: ReadonlyMap<number, number>,
    private readonly now: () => number = Date.now,
  ) {}

  read(chainId: number, address: string, load: () => Promise<bigint>): Promise<bigint> {
    const ttl = this.ttlMs.get(chainId) ?? 0;
    if (ttl <= 0) return load();
    const key = `${chainId}:${address.toLowerCase()}`;
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > this.now()) return cached.value;

    if (this.entries.size >= PRUNE_ABOVE) this.prune();
    const entry: Entry = { value: load(), expiresAt: Infinity };
    this.entries.set(key, entry);
    entry.value.then(
      () => {
        entry.expiresAt = this.now() + ttl;
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.value;
  }

  private prune(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}
