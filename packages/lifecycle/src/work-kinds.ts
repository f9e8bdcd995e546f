import { Prisma, type SweepKind, type Tx } from "@sweep/db";
import type { QueueNames } from "@sweep/messaging";
import { revocationsFinal, sweepsFinal } from "@sweep/metrics";
import type { EventType } from "./events";
import { wakeHotWallet, wakeRevocationRounds, wakeSweepsOfAccounts } from "./work-wakes";

/** The two kinds of work a partner asks for: one lifecycle (transitions.ts), told apart only here. */
export type WorkKind = "sweep" | "revocation";

/** What the transaction that carried an item did for it: its share of the gas, in gas and in wei. */
export interface OnChainShare {
  txHash: string;
  gas: bigint;
  gasCost: bigint;
}

/** The final state of an item that went through, per kind. */
export interface DoneStates {
  sweep: "swept";
  revocation: "revoked";
}

/** The columns a settlement writes, beside the status, per kind. */
export interface SettledColumns {
  sweep: {
    onChain: OnChainShare & { kind: SweepKind };
    done: { sweptAmount: bigint; fee: bigint; classicGas: bigint | null; rateBps: number };
  };
  revocation: { onChain: OnChainShare; done: null };
}

/** One column a settlement may write: where its value comes from, and the SQL type the text is cast back to. */
export interface SettledColumn {
  part: "onChain" | "done";
  field: string;
  column: string;
  cast: string;
}

/** An item that changed state, as the wakes need it. */
export interface ChangedItem {
  id: string;
  account: string;
  /** its new state is final (no change leaves it) */
  ended: boolean;
}

/** Whose items changed: the batch's partner and chain, and a sweep batch's hot wallet. */
export interface WorkScope {
  partnerId: string;
  chainId: number;
  hotWalletId?: string | null;
}

interface WorkRules {
  table: Prisma.Sql;
  done: DoneStates[WorkKind];
  events: { rejected: EventType; done: EventType; failed: EventType };
  /** counts the items that reached a final state (both kinds' counters share their labels) */
  finalCounter: typeof sweepsFinal;
  columns: readonly SettledColumn[];
  /**
   * Wakes the batcher, in the transaction that changed the items, for the work that waited for
   * them (the waits are the batcher's due-work rules): `fromProcessing` when they left a batch.
   */
  wake(tx: Tx, names: QueueNames, scope: WorkScope, changed: readonly ChangedItem[], fromProcessing: boolean): Promise<void>;
}

const accountsOf = (items: readonly ChangedItem[]) => [...new Set(items.map((item) => item.account))];
const onChainShare: SettledColumn[] = [
  { part: "onChain", field: "txHash", column: "tx_hash", cast: "text" },
  { part: "onChain", field: "gas", column: "gas", cast: "bigint" },
  { part: "onChain", field: "gasCost", column: "gas_cost", cast: "numeric" },
];

/** The one place the two kinds of work differ in how their states change. */
export const workKinds: Record<WorkKind, WorkRules> = {
  sweep: {
    table: Prisma.raw("sweeps"),
    done: "swept",
    events: { rejected: "sweep.rejected", done: "sweep.swept", failed: "sweep.failed" },
    finalCounter: sweepsFinal,
    columns: [
      ...onChainShare,
      { part: "onChain", field: "kind", column: "kind", cast: `"SweepKind"` },
      { part: "done", field: "sweptAmount", column: "swept_amount", cast: "numeric" },
      { part: "done", field: "fee", column: "fee", cast: "numeric" },
      { part: "done", field: "classicGas", column: "classic_gas", cast: "bigint" },
      { part: "done", field: "rateBps", column: "rate_bps", cast: "integer" },
    ],
    // A sweep waits while a sweep of its address is processing in any hot wallet of the chain, and a
    // revocation for the sweeps of its address requested before it.
    async wake(tx, names, scope, changed, fromProcessing) {
      if (fromProcessing && scope.hotWalletId) {
        await wakeHotWallet(tx, names, { hotWalletId: scope.hotWalletId, chainId: scope.chainId });
        await wakeSweepsOfAccounts(tx, names, { chainId: scope.chainId, accounts: accountsOf(changed), except: scope.hotWalletId });
      }
      await wakeRevocationRounds(tx, names, { chainId: scope.chainId, accounts: accountsOf(changed.filter((item) => item.ended)) });
    },
  },
  revocation: {
    table: Prisma.raw("revocations"),
    done: "revoked",
    events: { rejected: "revocation.rejected", done: "revocation.revoked", failed: "revocation.failed" },
    finalCounter: revocationsFinal,
    columns: onChainShare,
    // A sweep waits for a revocation of its address requested before it; a revocation for another of
    // its address processing, and for its partner's batch being prepared.
    async wake(tx, names, scope, changed, fromProcessing) {
      await wakeSweepsOfAccounts(tx, names, { chainId: scope.chainId, accounts: accountsOf(changed.filter((item) => item.ended)) });
      if (fromProcessing) {
        await wakeRevocationRounds(tx, names, { chainId: scope.chainId, accounts: accountsOf(changed), partnerId: scope.partnerId, settled: changed.map((item) => item.id) });
      }
    },
  },
};
