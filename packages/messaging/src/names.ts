/**
 * Every exchange and queue name of the suite. Services and the CLI take names from here and never
 * spell them by hand. A prefix namespaces a whole topology (tests use a unique one per run).
 */
export interface QueueNames {
  readonly prefix: string;
  /** Direct exchange for all work; a work queue is bound with its own name as routing key. */
  readonly workExchange: string;
  /** Direct exchange the work queues dead-letter into; a DLQ is bound with its work queue's name. */
  readonly deadLetterExchange: string;
  /** Alternate exchange of the work exchange: catches what no work queue was bound for. */
  readonly unroutedExchange: string;
  batcher(chainId: number): string;
  /** Single active consumer: the chain-sender is the only writer of its gas wallets' nonces. */
  sender(chainId: number): string;
  /** Transaction outcomes for the ledger. */
  ledger(): string;
  /** Recorded events for the webhook dispatcher. */
  events(): string;
  unrouted(): string;
  deadLetter(workQueue: string): string;
  delay(workQueue: string, delayMs: number): string;
}

export function queueNames(prefix = ""): QueueNames {
  const p = prefix === "" ? "" : `${prefix}.`;
  return {
    prefix,
    workExchange: `${p}sweep.work`,
    deadLetterExchange: `${p}sweep.dead-letter`,
    unroutedExchange: `${p}sweep.unrouted`,
    batcher: (chainId) => `${p}batcher.${chainId}`,
    sender: (chainId) => `${p}sender.${chainId}`,
    ledger: () => `${p}ledger`,
    events: () => `${p}events`,
    unrouted: () => `${p}unrouted`,
    deadLetter: (workQueue) => `${workQueue}.dlq`,
    delay: (workQueue, delayMs) => `${workQueue}.delay.${delayMs}ms`,
  };
}
