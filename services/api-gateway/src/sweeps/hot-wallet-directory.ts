import type { Db, HotWalletStatus } from "@sweep/db";
import { states } from "@sweep/lifecycle";
import { checksumAddress } from "../chains";

export interface SweepTarget {
  id: string;
  /** EIP-55 */
  address: string;
  delegate: string;
  status: HotWalletStatus;
}

/**
 * Hot wallets by (partner, chain, address in any case), for POST /v1/sweeps. Active is final (a
 * registration again answers 200 and changes nothing) and the delegate never changes, so active
 * hot wallets are kept in memory, which also saves checksumming their address again; any other
 * state is read from the database every time.
 */
export class HotWalletDirectory {
  private readonly active = new Map<string, SweepTarget>();

  constructor(
    private readonly db: Db,
    private readonly capacity = 50_000,
  ) {}

  async find(partnerId: string, chainId: number, anyCaseAddress: string): Promise<SweepTarget | null> {
    const key = `${partnerId}:${chainId}:${anyCaseAddress.toLowerCase()}`;
    const known = this.active.get(key);
    if (known) return known;
    const address = checksumAddress(anyCaseAddress);
    const row = await this.db.hotWallet.findUnique({
      where: { partnerId_chainId_address: { partnerId, chainId, address } },
      select: { id: true, address: true, delegate: true, status: true },
    });
    if (row?.status === states.hotWallet.active) this.remember(key, row);
    return row;
  }

  private remember(key: string, target: SweepTarget): void {
    // Oldest first out: a Map iterates in insertion order.
    if (this.active.size >= this.capacity) this.active.delete(this.active.keys().next().value!);
    this.active.set(key, target);
  }
}
