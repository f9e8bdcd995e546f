/** A transaction not mined this long after it went out (or was stored, when no node took it yet) is replaced. */
export function isStuck(sentAt: Date, now: Date, replaceAfterMs: number): boolean {
  return now.getTime() - sentAt.getTime() >= replaceAfterMs;
}

/**
 * Rounds in a row that saw a nonce taken (the count at depth past it, no receipt of any of our
 * transactions of it), from the head of the first to the head of the last. Only a round at a head
 * above the last one's counts: a round that read a head no higher adds nothing.
 */
export interface TakenRun {
  rounds: number;
  firstHead: number;
  lastHead: number;
}

/** This round's observation added to the run; a round that did not see the nonce taken ends it. */
export function nextTakenRun(run: TakenRun | undefined, head: number, taken: boolean): TakenRun | undefined {
  if (!taken) return undefined;
  if (!run) return { rounds: 1, firstHead: head, lastHead: head };
  return head > run.lastHead ? { ...run, rounds: run.rounds + 1, lastHead: head } : run;
}

/** How much agreement gives a nonce up: this many rounds, whose heads span at least this many blocks. */
export interface AbandonRule {
  rounds: number;
  blocks: number;
}

/**
 * Whether the run is evidence enough that another transaction took the nonce. Receipts are read
 * one request each, and a load-balanced endpoint may answer any of them from a backend behind the
 * block ours was mined in; a backend lagging fewer blocks than the run spans has seen that block by
 * the run's last round, so a run that spans `blocks` survives any lag shorter than that.
 */
export function takenForSure(run: TakenRun | undefined, rule: AbandonRule): boolean {
  return run !== undefined && run.rounds >= rule.rounds && run.lastHead - run.firstHead >= rule.blocks;
}

