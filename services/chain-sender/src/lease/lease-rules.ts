/**
 * The rules of a chain's leader lease, apart from the database connection that holds it: which
 * advisory lock stands for the chain, and what the lease does on each thing it learns.
 */

/** The first key of every chain-sender lease ("csnd" in ASCII): no other advisory lock of the suite uses it. */
export const LEASE_NAMESPACE = 0x63736e64;

/**
 * The two int4 keys of `pg_try_advisory_lock(namespace, chain)`. A chain id is an unsigned 32-bit
 * value here (every chain the suite knows is far below), stored in the signed int4 Postgres takes.
 */
export function leaseKeys(chainId: number): [number, number] {
  if (!Number.isInteger(chainId) || chainId <= 0 || chainId > 0xffff_ffff) throw new RangeError(`chain id ${chainId} has no leader lease: it must be 1 to 2^32-1`);
  return [LEASE_NAMESPACE, chainId | 0];
}

/**
 * starting: no answer from the database yet; standby: another process holds the lease; leader:
 * this process holds it and serves the chain; lost: the connection holding it failed (terminal:
 * the process stops serving the chain); released: shut down (terminal).
 */
export type LeaseState = "starting" | "standby" | "leader" | "lost" | "released";

/**
 * acquired / busy: the lock was taken / is held by another session; held: the leader's connection
 * answered its check; unreachable: no connection or no answer; stop: the process shuts down.
 */
export type LeaseEvent = "acquired" | "busy" | "held" | "unreachable" | "stop";

/**
 * serve: start the chain's work; standby: say another process leads; reconnect: drop the
 * connection and open another at the next poll; fence: stop serving the chain at once; release:
 * stop the chain's work, then end the connection (which frees the lock).
 */
export type LeaseAction = "serve" | "standby" | "reconnect" | "fence" | "release" | "none";

const TRANSITIONS: Record<LeaseState, Partial<Record<LeaseEvent, [LeaseState, LeaseAction]>>> = {
  starting: { acquired: ["leader", "serve"], busy: ["standby", "standby"], unreachable: ["starting", "reconnect"], stop: ["released", "release"] },
  standby: { acquired: ["leader", "serve"], busy: ["standby", "none"], unreachable: ["standby", "reconnect"], stop: ["released", "release"] },
  // A session lock is lost only with its session: a leader that cannot reach its connection may
  // already have been replaced, so it never waits to find out.
  leader: { held: ["leader", "none"], unreachable: ["lost", "fence"], stop: ["released", "release"] },
  lost: {},
  released: {},
};

/** The next state and what to do; an event a state does not expect (a late answer after a stop) changes nothing. */
export function nextLease(state: LeaseState, event: LeaseEvent): { state: LeaseState; action: LeaseAction } {
  const [next, action] = TRANSITIONS[state][event] ?? [state, "none"];
  return { state: next, action };
}
