import type { Logger } from "@sweep/common";
import { Consumer, type Handlers, type Messaging } from "@sweep/messaging";
import type { LedgerDeps } from "./ledger-deps";
import { settleFailedBatch, settleTransaction } from "./batch-purposes";

export function ledgerHandlers(deps: LedgerDeps): Handlers {
  return {
    "tx.outcome": async (payload, { logger }) => {
      const outcome = await settleTransaction(deps, payload, logger);
      deps.transactionSettled?.(payload.chainId);
      return outcome;
    },
    "batch.failed": (payload, { logger }) => settleFailedBatch(deps, payload, logger),
  };
}

/** Consumes the ledger queue: transaction outcomes and batches that never went through. */
export function startLedgerConsumer(messaging: Pick<Messaging, "connection" | "topology">, deps: LedgerDeps, logger: Logger, handlers: Handlers = ledgerHandlers(deps)): Promise<Consumer> {
  return Consumer.start(messaging.connection, messaging.topology, { queue: messaging.topology.names.ledger(), handlers, logger });
}
