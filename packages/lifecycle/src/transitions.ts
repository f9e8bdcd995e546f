import type { BatchStatus, DeliveryStatus, DepositStatus, HotWalletStatus, TxReorg, TxStatus, WorkStatus } from "@sweep/db";

/** The services and the command line, as they move things from state to state. */
export type Mover = "api-gateway" | "batcher" | "chain-sender" | "ledger" | "webhook-dispatcher" | "sweepctl" | "any service";

export interface Transition<S extends string> {
  /** null: the thing is created in `to` */
  from: S | null;
  to: S;
  by: Mover;
  when: string;
}

type SweepStatus = Exclude<WorkStatus, "revoked">;
type RevocationStatus = Exclude<WorkStatus, "swept">;

/**
 * Every state change of the service's work, as data: what each kind of thing goes through, who
 * moves it and on what. The guarded updates ask `fromStates` which states a change may start in,
 * and the picture in docs/architecture.md is drawn from it (lifecycleDiagram), so the three agree.
 */
export const lifecycles = {
  sweep: [
    { from: null, to: "queued", by: "api-gateway", when: "POST /v1/sweeps" },
    { from: null, to: "queued", by: "batcher", when: "a sweep policy, from confirmed deposits" },
    { from: "queued", to: "processing", by: "batcher", when: "claimed into a sweep batch" },
    { from: "queued", to: "rejected", by: "batcher", when: "check before sending: not_upgraded, stale_authorization, nothing_to_sweep" },
    { from: "processing", to: "rejected", by: "chain-sender", when: "simulation: would_fail" },
    { from: "processing", to: "swept", by: "ledger", when: "batch confirmed, funds moved" },
    { from: "processing", to: "failed", by: "ledger", when: "reverted on chain, or attempts ran out" },
    { from: "processing", to: "queued", by: "ledger", when: "attempt failed, attempts remain" },
    { from: "processing", to: "queued", by: "chain-sender", when: "left out unsent: over the fee cap, its authority reserved, or the base fee over its ceiling at signing" },
  ],
  revocation: [
    { from: null, to: "queued", by: "api-gateway", when: "POST /v1/revocations" },
    { from: "queued", to: "processing", by: "batcher", when: "claimed into a revocation batch" },
    { from: "queued", to: "rejected", by: "batcher", when: "check before sending: not_delegated, stale_authorization, invalid_authorization" },
    { from: "processing", to: "revoked", by: "ledger", when: "transaction confirmed, delegation removed" },
    { from: "processing", to: "failed", by: "ledger", when: "not_applied, or attempts ran out" },
    { from: "processing", to: "queued", by: "ledger", when: "attempt failed, attempts remain" },
    { from: "processing", to: "queued", by: "chain-sender", when: "left out unsent: over the fee cap, its authority reserved, or the base fee over its ceiling at signing" },
  ],
  hotWallet: [
    { from: null, to: "pending", by: "api-gateway", when: "POST /v1/hot-wallets" },
    { from: "failed", to: "pending", by: "api-gateway", when: "POST /v1/hot-wallets again" },
    { from: "pending", to: "active", by: "ledger", when: "deployment confirmed, the delegate has code" },
    { from: "pending", to: "failed", by: "ledger", when: "deployment failed" },
  ],
  batch: [
    { from: null, to: "open", by: "batcher", when: "sweeps or revocations claimed" },
    { from: null, to: "open", by: "chain-sender", when: "a hot wallet's delegate to deploy" },
    { from: null, to: "open", by: "sweepctl", when: "fees withdraw, gas-wallet drain (also the ledger's withdrawal schedule)" },
    { from: null, to: "sent", by: "chain-sender", when: "a gap filler, with its transaction" },
    { from: "open", to: "sent", by: "chain-sender", when: "transaction signed and stored" },
    { from: "open", to: "confirmed", by: "chain-sender", when: "nothing left to send" },
    { from: "open", to: "failed", by: "chain-sender", when: "attempt failed before sending" },
    { from: "sent", to: "confirmed", by: "chain-sender", when: "mined at the confirmation depth" },
    { from: "sent", to: "failed", by: "chain-sender", when: "its nonce abandoned" },
  ],
  transaction: [
    { from: null, to: "signed", by: "chain-sender", when: "signed and stored before any broadcast" },
    { from: "signed", to: "broadcast", by: "chain-sender", when: "a node accepted it" },
    { from: "signed", to: "confirmed", by: "chain-sender", when: "mined at the confirmation depth" },
    { from: "broadcast", to: "confirmed", by: "chain-sender", when: "mined at the confirmation depth" },
    { from: "signed", to: "replaced", by: "chain-sender", when: "another of its nonce mined" },
    { from: "broadcast", to: "replaced", by: "chain-sender", when: "another of its nonce mined" },
    { from: "signed", to: "dropped", by: "chain-sender", when: "its nonce abandoned" },
    { from: "broadcast", to: "dropped", by: "chain-sender", when: "its nonce abandoned" },
  ],
  // A confirmed transaction's `reorg` column: null while its block is canonical (the start here).
  reorg: [
    { from: null, to: "reorged", by: "chain-sender", when: "its block left the canonical chain: sent again" },
    { from: "reorged", to: "restored", by: "chain-sender", when: "mined again at the confirmation depth" },
    { from: "reorged", to: "lost", by: "chain-sender", when: "another transaction took its nonce" },
  ],
  delivery: [
    { from: null, to: "pending", by: "any service", when: "an event recorded for a partner with a webhook" },
    { from: "pending", to: "pending", by: "webhook-dispatcher", when: "attempt failed, attempts remain" },
    { from: "pending", to: "delivered", by: "webhook-dispatcher", when: "the endpoint answered 2xx" },
    { from: "pending", to: "failed", by: "webhook-dispatcher", when: "attempts ran out, or the webhook was removed" },
    { from: "pending", to: "failed", by: "api-gateway", when: "DELETE /v1/webhook" },
    { from: "delivered", to: "pending", by: "api-gateway", when: "resent" },
    { from: "failed", to: "pending", by: "api-gateway", when: "resent" },
  ],
  // A reorg that removes a pending deposit's block deletes the deposit: it never was.
  deposit: [
    { from: null, to: "pending", by: "batcher", when: "a transfer to an inventory address, in a block read" },
    { from: "pending", to: "confirmed", by: "batcher", when: "at the chain's confirmations: deposit.detected" },
  ],
} as const satisfies {
  sweep: readonly Transition<SweepStatus>[];
  revocation: readonly Transition<RevocationStatus>[];
  hotWallet: readonly Transition<HotWalletStatus>[];
  batch: readonly Transition<BatchStatus>[];
  transaction: readonly Transition<TxStatus>[];
  reorg: readonly Transition<TxReorg>[];
  delivery: readonly Transition<DeliveryStatus>[];
  deposit: readonly Transition<DepositStatus>[];
};

export type Lifecycle = keyof typeof lifecycles;
/** The states of a kind of thing, as its table names them. */
export type StateOf<L extends Lifecycle> = (typeof lifecycles)[L][number]["to"];

/** The states a change into `to` (made by `by`, where several make it) may start from: the guard of the update that makes it. */
export function fromStates<L extends Lifecycle>(lifecycle: L, to: StateOf<L>, by?: Mover): Array<StateOf<L>> {
  const starts = (lifecycles[lifecycle] as readonly Transition<string>[])
    .filter((t) => t.to === to && t.from !== null && (by === undefined || t.by === by))
    .map((t) => t.from as StateOf<L>);
  if (starts.length === 0) throw new Error(`no change of a ${lifecycle} leads into ${to} from another state${by ? ` by the ${by}` : ""}`);
  return [...new Set(starts)];
}

/**
 * Changes out of a final state, made only when the chain shows that state wrong: a nonce given up
 * as taken whose transaction turns out mined after all (a receipt a backend withheld longer than the
 * watcher's rule allows). Apart from `lifecycles`: no ordinary change starts from them (fromStates
 * never names them), and the states they leave stay final for everything else.
 */
export const corrections = {
  transaction: [{ from: "dropped", to: "confirmed", by: "chain-sender", when: "its nonce was given up, but it was mined" }],
  batch: [{ from: "failed", to: "confirmed", by: "chain-sender", when: "its nonce was given up, but its transaction was mined" }],
  sweep: [
    { from: "queued", to: "processing", by: "chain-sender", when: "back in the batch whose abandoned transaction was mined, to be settled from it" },
    { from: "rejected", to: "processing", by: "chain-sender", when: "back in the batch whose abandoned transaction was mined, to be settled from it" },
    { from: "failed", to: "processing", by: "chain-sender", when: "back in the batch whose abandoned transaction was mined, to be settled from it" },
  ],
  revocation: [
    { from: "queued", to: "processing", by: "chain-sender", when: "back in the batch whose abandoned transaction was mined, to be settled from it" },
    { from: "rejected", to: "processing", by: "chain-sender", when: "back in the batch whose abandoned transaction was mined, to be settled from it" },
    { from: "failed", to: "processing", by: "chain-sender", when: "back in the batch whose abandoned transaction was mined, to be settled from it" },
  ],
  hotWallet: [{ from: "failed", to: "active", by: "ledger", when: "its deployment's nonce was given up, but its transaction was mined and the delegate has code" }],
} as const satisfies {
  transaction: readonly Transition<TxStatus>[];
  batch: readonly Transition<BatchStatus>[];
  sweep: readonly Transition<SweepStatus>[];
  revocation: readonly Transition<RevocationStatus>[];
  hotWallet: readonly Transition<HotWalletStatus>[];
};

/** The states a correction into `to` starts from: the guard of the update that makes it. */
export function correctedFrom<L extends keyof typeof corrections>(lifecycle: L, to: (typeof corrections)[L][number]["to"]): Array<(typeof corrections)[L][number]["from"]> {
  return (corrections[lifecycle] as readonly Transition<string>[]).filter((t) => t.to === to).map((t) => t.from as (typeof corrections)[L][number]["from"]);
}

/** Whether the corrections allow the change. */
export function isCorrection(lifecycle: keyof typeof corrections, from: string, to: string): boolean {
  return (corrections[lifecycle] as readonly Transition<string>[]).some((t) => t.from === from && t.to === to);
}

/** Whether the table allows the change (null `from`: creating it in `to`). */
export function isTransition<L extends Lifecycle>(lifecycle: L, from: StateOf<L> | null, to: StateOf<L>): boolean {
  return (lifecycles[lifecycle] as readonly Transition<string>[]).some((t) => t.from === from && t.to === to);
}

/** The states no change leaves: a thing there stays. */
export function finalStates<L extends Lifecycle>(lifecycle: L): Array<StateOf<L>> {
  const table = lifecycles[lifecycle] as readonly Transition<string>[];
  const states = new Set(table.map((t) => t.to));
  return [...states].filter((state) => !table.some((t) => t.from === state)) as Array<StateOf<L>>;
}

/**
 * The lifecycles as one Mermaid state diagram, a composite state per kind, each change labelled with
 * who makes it and when: the picture of docs/architecture.md, which a test keeps equal to this.
 * State ids carry their kind (the kinds share state names), their labels do not.
 */
export function lifecycleDiagram(): string {
  const kinds = (Object.keys(lifecycles) as Lifecycle[]).map((lifecycle) => {
    const table = lifecycles[lifecycle] as readonly Transition<string>[];
    const id = (state: string) => `${lifecycle}_${state}`;
    const states = [...new Set(table.map((t) => t.to))].map((state) => `    state "${state}" as ${id(state)}`);
    const changes = table.map((t) => `    ${t.from === null ? "[*]" : id(t.from)} --> ${id(t.to)}: ${t.by} (${t.when.replaceAll(":", " -")})`);
    const finals = finalStates(lifecycle).map((state) => `    ${id(state)} --> [*]`);
    return [`  state ${lifecycle} {`, ...states, ...changes, ...finals, "  }"].join("\n");
  });
  return ["```mermaid", "stateDiagram-v2", ...kinds, "```"].join("\n");
}
