import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";

/** How often a key's last_used_at is written per gateway process: the console shows it to the minute. */
const WRITE_INTERVAL_MS = 60_000;
/** Keys remembered, bounded as the look-up's known hashes are. */
const REMEMBERED = 10_000;

/**
 * Writes api_keys.last_used_at for the keys the API admits, at most once a minute per key and
 * process: a key making a thousand requests a second costs one UPDATE a minute. A failed write
 * is logged and never fails the request.
 */
export class KeyUsage {
  private readonly written = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  async used(hash: string): Promise<void> {
    const now = Date.now();
    const last = this.written.get(hash);
    if (last !== undefined && now - last < WRITE_INTERVAL_MS) return;
    this.written.delete(hash);
    if (this.written.size >= REMEMBERED) this.written.delete(this.written.keys().next().value!);
    this.written.set(hash, now);
    try {
      await this.db.apiKey.updateMany({ where: { hash }, data: { lastUsedAt: new Date(now) } });
    } catch (err) {
      this.logger.warn("could not record an API key's last use", { error: (err as Error).message });
    }
  }
}
