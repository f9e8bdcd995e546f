/**
 * The leader lease against a real Postgres: which of several processes serves a chain, how fast a
 * standby takes over when the leader stops or its session dies, and that a leader whose session
 * dies stops at once (`lost`) rather than waiting to find out.
 */
import { createLogger } from "@sweep/common";
import { createTestDatabase, eventually } from "@sweep/testkit";
import { Client } from "pg";
import { LeaderLease } from "../src/lease/leader-lease";
import { LEASE_NAMESPACE } from "../src/lease/lease-rules";

const logger = createLogger("leader-lease-test", "error");
// Fencing logs an error by design; the assertions below read what happened instead.
logger.silent = true;

/** A process's lease on a chain, with what it did: serving, stopped serving, lost, and the gauge's values. */
function contender(databaseUrl: string, chainId: number, options: { failToServe?: boolean } = {}) {
  const seen = { serving: 0, stopped: 0, lost: [] as string[], leading: [] as boolean[] };
  const lease = new LeaderLease({
    chainId,
    databaseUrl,
    pollMs: 50,
    logger,
    serve: async () => {
      if (options.failToServe) throw new Error("the broker is gone");
      seen.serving++;
      return async () => {
        seen.stopped++;
      };
    },
    lost: (reason) => seen.lost.push(reason),
    leading: (leader) => seen.leading.push(leader),
  });
  return { lease, seen };
}

/** Waits, polling every 20 ms, until `check` holds. */
const until = (what: string, check: () => boolean) => eventually(what, async () => check() || undefined, 10_000, 20);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("leader lease", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: Client;
  const started: LeaderLease[] = [];

  /** The backend holding the chain's lease, as pg_locks shows it. */
  const holders = async (chainId: number) =>
    (
      await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1 AND objid = $2 AND objsubid = 2 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        [LEASE_NAMESPACE, chainId],
      )
    ).rows.map((r) => r.pid);

  const start = (...contenders: Array<ReturnType<typeof contender>>) => contenders.forEach(({ lease }) => (started.push(lease), lease.start()));

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = new Client({ connectionString: database.url });
    await admin.connect();
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((lease) => lease.stop()));
  });

  afterAll(async () => {
    await admin?.end();
    await database?.drop();
  });

  it("lets one process serve the chain while another waits on standby, and hands over within a poll when the leader stops", async () => {
    const first = contender(database.url, 97);
    const second = contender(database.url, 97);
    start(first);
    await until("the first to lead", () => first.seen.serving === 1);
    start(second);
    await pause(500);
    expect(second.seen).toMatchObject({ serving: 0, leading: [false] });
    expect(first.seen.leading).toEqual([false, true]);
    expect(await holders(97)).toHaveLength(1);

    const stoppedAt = Date.now();
    await first.lease.stop();
    expect(first.seen).toMatchObject({ stopped: 1, lost: [], leading: [false, true, false] });
    await until("the standby to lead", () => second.seen.serving === 1);
    expect(Date.now() - stoppedAt).toBeLessThan(2_000);
    expect(await holders(97)).toHaveLength(1);
  });

  it("fences a leader whose session dies, at once, and the standby takes over", async () => {
    const first = contender(database.url, 97);
    const second = contender(database.url, 97);
    start(first);
    await until("the first to lead", () => first.seen.serving === 1);
    start(second);
    const [pid] = await holders(97);
    await admin.query("SELECT pg_terminate_backend($1)", [pid]);

    await until("the leader fenced", () => first.seen.lost.length === 1);
    expect(first.seen.leading.at(-1)).toBe(false);
    await until("the standby to lead", () => second.seen.serving === 1);
    // A fenced lease never tries again: its process exits and comes back as a standby.
    await pause(300);
    expect(first.seen).toMatchObject({ serving: 1, lost: [expect.any(String)] });
  });

  it("gives the lease up when the leader cannot start serving", async () => {
    const failing = contender(database.url, 97, { failToServe: true });
    start(failing);
    await until("the lease lost", () => failing.seen.lost.length === 1);
    expect(failing.seen.lost[0]).toMatch(/could not start serving: the broker is gone/);
    const next = contender(database.url, 97);
    start(next);
    await until("another to lead", () => next.seen.serving === 1);
  });

  it("leads each chain on its own", async () => {
    const sepolia = contender(database.url, 11155111);
    const bsc = contender(database.url, 97);
    start(sepolia, bsc);
    await until("both to lead", () => sepolia.seen.serving === 1 && bsc.seen.serving === 1);
    expect([...(await holders(11155111)), ...(await holders(97))]).toHaveLength(2);
  });
});
