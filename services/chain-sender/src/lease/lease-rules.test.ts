import { LEASE_NAMESPACE, leaseKeys, nextLease, type LeaseAction, type LeaseEvent, type LeaseState } from "./lease-rules";

describe("leader lease rules", () => {
  it.each([
    [1, 1],
    [56, 56],
    [97, 97],
    [11155111, 11155111],
    [2 ** 31 - 1, 2 ** 31 - 1],
    // Above int4: the same 32 bits, read signed as Postgres takes them.
    [2 ** 31, -(2 ** 31)],
    [2 ** 32 - 1, -1],
  ])("chain %i locks (namespace, %i)", (chainId, key) => {
    expect(leaseKeys(chainId)).toEqual([LEASE_NAMESPACE, key]);
  });

  it("keeps every chain's namespace within int4", () => {
    expect(LEASE_NAMESPACE).toBeLessThanOrEqual(2 ** 31 - 1);
  });

  it.each([0, -1, 1.5, 2 ** 32, Number.NaN])("has no lease for chain id %s", (chainId) => {
    expect(() => leaseKeys(chainId)).toThrow(RangeError);
  });

  it.each<[LeaseState, LeaseEvent, LeaseState, LeaseAction]>([
    ["starting", "acquired", "leader", "serve"],
    ["starting", "busy", "standby", "standby"],
    ["starting", "unreachable", "starting", "reconnect"],
    ["starting", "stop", "released", "release"],
    ["standby", "acquired", "leader", "serve"],
    ["standby", "busy", "standby", "none"],
    ["standby", "unreachable", "standby", "reconnect"],
    ["standby", "stop", "released", "release"],
    ["leader", "held", "leader", "none"],
    // A leader never reconnects: another may hold the lease by the time it could.
    ["leader", "unreachable", "lost", "fence"],
    ["leader", "stop", "released", "release"],
    // Answers that come late change nothing.
    ["leader", "acquired", "leader", "none"],
    ["standby", "held", "standby", "none"],
    ["lost", "acquired", "lost", "none"],
    ["lost", "stop", "lost", "none"],
    ["released", "acquired", "released", "none"],
    ["released", "unreachable", "released", "none"],
  ])("%s, on %s: %s (%s)", (state, event, next, action) => {
    expect(nextLease(state, event)).toEqual({ state: next, action });
  });
});
