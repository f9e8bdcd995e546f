import { finalStates, lifecycles, type Lifecycle, type StateOf } from "./transitions";

type Named<L extends Lifecycle> = { readonly [S in StateOf<L>]: S };

function named<L extends Lifecycle>(lifecycle: L): Named<L> {
  const table = lifecycles[lifecycle] as ReadonlyArray<{ to: string }>;
  return Object.fromEntries(table.map((t) => [t.to, t.to])) as Named<L>;
}

/**
 * Each kind's states by name, as the transition table defines them (`states.batch.sent` is
 * "sent"): the services' reads name a state through it, so a state the table renames or drops
 * fails to compile where it is read.
 */
export const states: { readonly [L in Lifecycle]: Named<L> } = {
  sweep: named("sweep"),
  revocation: named("revocation"),
  hotWallet: named("hotWallet"),
  batch: named("batch"),
  transaction: named("transaction"),
  reorg: named("reorg"),
  delivery: named("delivery"),
  deposit: named("deposit"),
};

function unfinished<L extends Lifecycle>(lifecycle: L): Array<StateOf<L>> {
  const finals = new Set<string>(finalStates(lifecycle));
  return Object.keys(states[lifecycle]).filter((state) => !finals.has(state)) as Array<StateOf<L>>;
}

/** The states a change still leaves: work not yet final, a batch or a transaction under way. */
export const unfinishedStates = {
  /** queued, processing */
  work: unfinished("sweep") as Array<"queued" | "processing">,
  /** open, sent */
  batch: unfinished("batch") as Array<"open" | "sent">,
  /** signed, broadcast: in flight */
  transaction: unfinished("transaction") as Array<"signed" | "broadcast">,
};
