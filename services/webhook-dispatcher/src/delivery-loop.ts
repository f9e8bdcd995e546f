import { PollingLoop } from "@sweep/worker";
import type { Logger } from "@sweep/common";
import type { Db } from "@sweep/db";
import { attemptDelivery, type AttemptDeps } from "./delivery-attempt";
import { deliveryLogFields } from "./delivery-log";
import { claimDueDeliveries, nextPendingAt } from "./delivery-store";

/** Beyond the attempt's own limit, the time a claim is held for the lookup, the body and recording the result. */
export const LEASE_MARGIN_MS = 5_000;
/**
 * A pass that claimed nothing rests longer, doubling up to this, but only until the earliest pending
 * delivery comes due (a retry, a lease ending): each recorded event nudges the loop, so the rest only
 * delays what no nudge announced, by this at most (docs/decisions.md).
 */
export const DELIVERY_IDLE_MAX_MS = 10_000;
/** Attempts under way at once: in all (a slow endpoint holds one, not the loop), and per partner (its share). */
export interface InFlightLimits {
  maxInFlight: number;
  partnerMaxInFlight: number;
}

export interface DeliveryLoop {
  /** Due deliveries may have appeared: look now rather than at the next poll. */
  nudge(): void;
  /** Stops claiming and waits for the attempts under way. */
  stop(): Promise<void>;
}

/**
 * Claims due deliveries every `pollMs` and on each nudge, as many as there is room for and no
 * partner past its share, and attempts each without holding up the next claim. A pass that claims
 * nothing rests longer (DELIVERY_IDLE_MAX_MS), no later than the earliest pending delivery's due time.
 */
export function startDeliveryLoop(options: { db: Db; pollMs: number; limits: InFlightLimits; attempt: AttemptDeps; logger: Logger }): DeliveryLoop {
  const { db, pollMs, limits, attempt } = options;
  const logger = options.logger.child({ loop: "delivery" });
  const inFlight = new Set<Promise<void>>();
  /** attempts under way by partner, none listed at 0 */
  const partnerInFlight = new Map<string, number>();

  const pass = async (): Promise<{ idleUntil: number } | "idle" | undefined> => {
    const limit = limits.maxInFlight - inFlight.size;
    if (limit <= 0) return undefined;
    const now = attempt.now();
    const lease = new Date(now.getTime() + attempt.timeoutMs + LEASE_MARGIN_MS);
    const claimed = await claimDueDeliveries(db, now, lease, { limit, perPartner: limits.partnerMaxInFlight, inFlight: partnerInFlight });
    if (claimed.length === 0) {
      const next = await nextPendingAt(db);
      return next === null ? "idle" : { idleUntil: next.getTime() };
    }
    for (const delivery of claimed) {
      const { partnerId } = delivery;
      partnerInFlight.set(partnerId, (partnerInFlight.get(partnerId) ?? 0) + 1);
      const running = attemptDelivery(attempt, delivery)
        .catch((err: unknown) => {
          logger.error("delivery attempt failed; retried when its lease ends", { ...deliveryLogFields(delivery), error: String(err) });
        })
        .finally(() => {
          inFlight.delete(running);
          const left = partnerInFlight.get(partnerId)! - 1;
          if (left === 0) partnerInFlight.delete(partnerId);
          else partnerInFlight.set(partnerId, left);
          // Room again, and perhaps more due than the last claim could take.
          loop.wake();
        });
      inFlight.add(running);
    }
    return undefined;
  };

  const loop = new PollingLoop({
    name: "delivery",
    intervalMs: pollMs,
    idleMaxMs: Math.max(pollMs, DELIVERY_IDLE_MAX_MS),
    round: pass,
    failed: (err) => logger.error("claiming due deliveries failed", { error: String(err) }),
  });
  loop.start();

  return {
    nudge: () => loop.wake(),
    stop: async () => {
      await loop.stop();
      await Promise.allSettled([...inFlight]);
    },
  };
}
