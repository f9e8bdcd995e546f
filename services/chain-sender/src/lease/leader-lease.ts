import { PollingLoop } from "@sweep/worker";
import type { Logger } from "@sweep/common";
import { Client } from "pg";
import { leaseKeys, nextLease, type LeaseEvent, type LeaseState } from "./lease-rules";

export interface LeaderLeaseOptions {
  chainId: number;
  databaseUrl: string;
  /** how often a standby tries to take the lease, and the leader checks the connection that holds it */
  pollMs: number;
  logger: Logger;
  /** starts the chain's work once this process leads; resolves to what stops it */
  serve: () => Promise<() => Promise<void>>;
  /**
   * The lease was lost while leading (its connection failed): the chain's work must stop at once.
   * The lease does not stop it itself: stopping waits for the work under way, which would go on
   * meanwhile beside a new leader.
   */
  lost: (reason: string) => void;
  /** whether this process leads the chain, at start and on each change */
  leading: (leader: boolean) => void;
}

/** One check or attempt unanswered this long counts as a lost connection. */
const ANSWER_TIMEOUT_MS = 5_000;

/** A lease connection that keeps failing is warned about again this often: a standby that can never lead must not go quiet. */
const UNREACHABLE_WARN_EVERY_MS = 60_000;

/**
 * The server drops a vanished client's session (and so its lock) once its keepalives or
 * unacknowledged data time out: after 25 s at the earliest, later than a cut-off leader's own check
 * gives up (one poll, at most 10 s, plus ANSWER_TIMEOUT_MS), so it has stopped before another starts.
 * A process that dies frees the lock at once: its socket closes.
 */
const SERVER_KEEPALIVES = "-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3 -c tcp_user_timeout=25000";

/**
 * A chain's leader lease: a session-level Postgres advisory lock held on a connection of its own.
 * A standby tries to take it every `pollMs`; the holder starts the chain's work (`serve`) and
 * checks its connection as often. The lock lives exactly as long as that session: a process that
 * dies frees it at once (its socket closes), a clean stop ends the session, and a leader whose
 * connection fails calls `lost`.
 */
export class LeaderLease {
  private state: LeaseState = "starting";
  private client?: Client;
  private stopServing?: () => Promise<void>;
  /** when the lease's connection was last warned about while failing; undefined while it answers */
  private warnedAt?: number;
  private readonly loop: PollingLoop;
  private started = false;
  private readonly keys: [number, number];
  private readonly logger: Logger;

  constructor(private readonly options: LeaderLeaseOptions) {
    this.keys = leaseKeys(options.chainId);
    this.logger = options.logger.child({ chainId: options.chainId });
    this.loop = new PollingLoop({
      name: "leader_lease",
      intervalMs: options.pollMs,
      round: async (stopping) => {
        if (this.state === "lost") return "done";
        const { event, reason } = await this.poll();
        // Taken while stopping: not served; the release that stop() runs next frees it.
        if (stopping.aborted && event === "acquired") return "done";
        await this.apply(event, reason);
      },
      failed: (err) => this.logger.error("leader lease round failed", { error: messageOf(err) }),
    });
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.options.leading(false);
    this.loop.start();
  }

  /** Stops the chain's work if this process leads, then ends the session, freeing the lock for a standby. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await this.apply("stop");
  }

  /** A standby tries to take the lock; the leader checks that the session holding it still answers. */
  private async poll(): Promise<{ event: LeaseEvent; reason?: string }> {
    if (this.state === "leader") {
      // Never a new connection for a leader: a lock is held by its session, not by the process.
      const client = this.client;
      if (!client) return { event: "unreachable", reason: "the lease's connection is gone" };
      try {
        await client.query("SELECT 1");
        return { event: "held" };
      } catch (err) {
        return { event: "unreachable", reason: messageOf(err) };
      }
    }
    try {
      const client = this.client ?? (await this.connect());
      const { rows } = await client.query<{ acquired: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS acquired", this.keys);
      // The session may have ended while the answer was on its way: a lock of an ended session is no lock.
      if (client !== this.client) return { event: "unreachable", reason: "the connection ended" };
      return { event: rows[0]?.acquired ? "acquired" : "busy" };
    } catch (err) {
      return { event: "unreachable", reason: messageOf(err) };
    }
  }

  private async connect(): Promise<Client> {
    const client = new Client({
      connectionString: this.options.databaseUrl,
      application_name: `chain-sender lease ${this.options.chainId}`,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: ANSWER_TIMEOUT_MS,
      query_timeout: ANSWER_TIMEOUT_MS,
      options: SERVER_KEEPALIVES,
    });
    // A leader learns of a failed session at once, not at its next check.
    client.on("error", (err: Error) => this.connectionFailed(client, err.message));
    client.on("end", () => this.connectionFailed(client, "the connection ended"));
    await client.connect();
    this.client = client;
    return client;
  }

  private connectionFailed(client: Client, reason: string): void {
    // A connection this lease dropped or ended itself, or one that never opened (connect() reports that).
    if (client !== this.client) return;
    void this.apply("unreachable", reason);
  }

  private async apply(event: LeaseEvent, reason = ""): Promise<void> {
    const { state, action } = nextLease(this.state, event);
    this.state = state;
    const chainId = this.options.chainId;
    if (event !== "unreachable") this.warnedAt = undefined;
    switch (action) {
      case "serve":
        this.logger.info(`leader of chain ${chainId}`);
        this.options.leading(true);
        try {
          this.stopServing = await this.options.serve();
        } catch (err) {
          // Holding the lock without serving would keep every standby waiting.
          this.state = "lost";
          this.fence(`could not start serving: ${messageOf(err)}`);
        }
        return;
      case "standby":
        this.logger.info(`standby for chain ${chainId}`);
        return;
      case "reconnect":
        if (this.warnedAt === undefined || Date.now() - this.warnedAt >= UNREACHABLE_WARN_EVERY_MS) {
          this.logger.warn("the leader lease's database connection failed; retrying", { error: reason });
          this.warnedAt = Date.now();
        }
        this.drop();
        return;
      case "fence":
        this.fence(reason);
        return;
      case "release": {
        await this.stopServing?.();
        const client = this.client;
        this.client = undefined;
        await client?.end().catch(() => undefined);
        this.options.leading(false);
        return;
      }
      case "none":
        return;
    }
  }

  private fence(reason: string): void {
    this.logger.error(`lost the leader lease of chain ${this.options.chainId}; serving it no longer`, { error: reason });
    this.options.leading(false);
    this.drop();
    this.options.lost(reason);
  }

  /** Forgets the connection and ends it, without waiting: ending a session frees its lock. */
  private drop(): void {
    const client = this.client;
    this.client = undefined;
    void client?.end().catch(() => undefined);
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
