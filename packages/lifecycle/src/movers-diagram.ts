import { corrections, lifecycles, type Lifecycle, type Transition } from "./transitions";

/**
 * Who moves what, as one Mermaid flowchart drawn from the same tables as lifecycleDiagram: a box
 * per service (or the command line), holding a box per kind of thing whose state it changes with
 * those changes, the starting states of one target state together ("signed, broadcast →
 * confirmed"), corrections marked. The picture of docs/architecture.md's "Where each state
 * changes", which a test keeps equal to this.
 */
export function moversDiagram(): string {
  const kinds = Object.keys(lifecycles) as Lifecycle[];
  const movers = new Map<string, Map<Lifecycle, Map<string, string[]>>>();
  const add = (lifecycle: Lifecycle, t: Transition<string>, correction: boolean) => {
    const moves = movers.get(t.by) ?? new Map<Lifecycle, Map<string, string[]>>();
    movers.set(t.by, moves);
    const changes = moves.get(lifecycle) ?? new Map<string, string[]>();
    moves.set(lifecycle, changes);
    const into = `${t.to}${correction ? " (correction)" : ""}`;
    const from = t.from ?? "new";
    if (!changes.get(into)?.includes(from)) changes.set(into, [...(changes.get(into) ?? []), from]);
  };
  for (const lifecycle of kinds) {
    for (const t of lifecycles[lifecycle] as readonly Transition<string>[]) add(lifecycle, t, false);
    for (const t of (corrections as Partial<Record<Lifecycle, readonly Transition<string>[]>>)[lifecycle] ?? []) add(lifecycle, t, true);
  }
  // Mermaid stacks unlinked boxes of a left-to-right chart from the bottom up: the first mover is written last, to be read first.
  const boxes = [...movers].reverse().flatMap(([by, moves]) => {
    const id = by.replace(/[^a-z]/g, "_");
    const things = [...moves].map(([lifecycle, changes]) => {
      const lines = [...changes].map(([into, from]) => `${from.join(", ")} → ${into}`);
      return `    ${id}_${lifecycle}["<b>${lifecycle}</b><br>${lines.join("<br>")}"]`;
    });
    return [`  subgraph ${id}["${by}"]`, "    direction TB", ...things, "  end"];
  });
  return ["```mermaid", "flowchart LR", ...boxes, "```"].join("\n");
}
