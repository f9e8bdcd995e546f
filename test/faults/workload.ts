/**
 * The partners' steady stream during the fault run, as a careful partner sends it: deposits arrive
 * on chain and are swept (first time with the deposit address's authorization, then repeatedly
 * without), now and then a delegation is revoked (alone, right after a sweep of the address, or
 * right before a sweep that delegates it again) and later given again by a new sweep. Every POST
 * carries an external_id and is retried after no answer or a 5xx, as the spec's retry rules say.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Db, WorkStatus } from "@sweep/db";
import { authorizationBody, type Random, type TestChain, type TestPartner } from "@sweep/testkit";
import { Wallet, ZeroAddress, parseUnits, type BaseWallet } from "ethers";

/** A partner's hot wallet on one chain: where a share of the load goes. */
export interface Lane {
  name: string;
  partner: TestPartner;
  chain: TestChain;
  hotWallet: string;
  delegate: string;
}

export type Asset = "USDT" | "native";
/**
 * What is asked of one deposit address. first: a new one, swept with its authorization; repeat: a
 * delegated one swept again; redelegate: a revoked one swept with a new authorization; revoke: its
 * delegation taken back; sweep+revoke: a repeat sweep and at once a revocation, which waits for it;
 * revoke+sweep: a revocation and at once a sweep with the authorization of the nonce the revocation
 * leaves, which waits for it.
 */
export type Plan = "first" | "repeat" | "redelegate" | "revoke" | "sweep+revoke" | "revoke+sweep";

export interface Operation {
  kind: "sweep" | "revocation";
  plan: Plan;
  lane: string;
  account: string;
  asset: Asset;
  id: string;
  /** POSTs it took */
  posts: number;
}

interface Deposit {
  owner: BaseWallet;
  asset: Asset;
  /** delegated to the lane's delegate, as the chain showed after its last operation ended */
  delegated: boolean;
  /** an operation of it is under way (funding, posted, not yet final) */
  busy: boolean;
}

const FINAL: Record<Operation["kind"], WorkStatus[]> = { sweep: ["swept", "failed", "rejected"], revocation: ["revoked", "failed", "rejected"] };
/** Shares of the stream: revocations and re-delegations are occasional, the rest splits between new and known deposits. */
const SHARES: Array<[Plan, "delegated" | "undelegated", number]> = [
  ["revoke", "delegated", 0.03],
  ["sweep+revoke", "delegated", 0.02],
  ["revoke+sweep", "delegated", 0.02],
  ["redelegate", "undelegated", 0.05],
  ["repeat", "delegated", 0.43],
];

export class Workload {
  readonly operations: Operation[] = [];
  /** answers that were not 200/202 (never retried: a 4xx is the same on a retry) and failures of the stream itself */
  readonly errors: string[] = [];
  private readonly deposits = new Map<string, Deposit[]>();
  private readonly posting = new Set<Promise<void>>();
  private readonly awaitingFinal = new Map<string, { kind: Operation["kind"]; done: () => void }>();
  private readonly stopping = new AbortController();
  /** after the drain: POSTs still retried give up, the watch on final states ends */
  private readonly closing = new AbortController();
  private ticking?: Promise<void>;
  private polling?: Promise<void>;
  private count = 0;

  constructor(
    private readonly options: {
      api: string;
      db: Db;
      lanes: readonly Lane[];
      random: Random;
      /** operations started per second */
      rate: number;
      /** makes external ids unique to the run */
      runId: string;
    },
  ) {
    for (const lane of options.lanes) this.deposits.set(lane.name, []);
  }

  start(): void {
    this.polling ??= this.pollFinal();
    this.ticking ??= (async () => {
      const started = Date.now();
      for (let n = 0; !this.stopping.signal.aborted; n++) {
        const wait = started + (n * 1000) / this.options.rate - Date.now();
        if (wait > 0) await sleep(wait, undefined, { signal: this.stopping.signal }).catch(() => undefined);
        if (this.stopping.signal.aborted) break;
        this.launch();
      }
    })();
  }

  /** Starts no more operations and waits until every one started has been posted, at most `graceMs` (what is left is an error). */
  async stop(graceMs: number): Promise<void> {
    this.stopping.abort();
    await this.ticking;
    const grace = new AbortController();
    const posted = await Promise.race([
      Promise.all([...this.posting]).then(() => true),
      sleep(graceMs, false, { signal: grace.signal }).catch(() => true),
    ]);
    grace.abort();
    if (!posted) this.errors.push(`${this.posting.size} operations not posted ${graceMs / 1000} s after the load stopped`);
  }

  /** Gives up what is still being posted and ends the watch on final states. */
  async close(): Promise<void> {
    this.stopping.abort();
    this.closing.abort();
    await Promise.all([this.ticking, this.polling]);
  }

  private launch(): void {
    const { random, lanes } = this.options;
    const lane = random.pick(lanes);
    const pool = this.deposits.get(lane.name)!;
    const idle = { delegated: pool.filter((d) => !d.busy && d.delegated), undelegated: pool.filter((d) => !d.busy && !d.delegated) };
    let draw = random.next();
    let plan: Plan = "first";
    let deposit: Deposit | undefined;
    for (const [candidate, state, share] of SHARES) {
      draw -= share;
      if (draw >= 0) continue;
      // No deposit in the state it needs: a new deposit instead.
      if (idle[state].length > 0) [plan, deposit] = [candidate, random.pick(idle[state])];
      break;
    }
    if (!deposit) {
      deposit = { owner: Wallet.createRandom(), asset: random.chance(0.3) ? "native" : "USDT", delegated: false, busy: false };
      pool.push(deposit);
    }
    deposit.busy = true;
    const amount = deposit.asset === "native" ? parseUnits(String(random.int(1, 9_999)), 12) : BigInt(random.int(1, 5_000_000));
    const posted = this.run(lane, deposit, plan, amount);
    this.posting.add(posted);
    void posted.finally(() => this.posting.delete(posted));
  }

  /** Funds, posts, and once its operations are final, reads the delegation they left; resolves once posted. */
  private async run(lane: Lane, deposit: Deposit, plan: Plan, amount: bigint): Promise<void> {
    const { owner, asset } = deposit;
    const chainId = lane.chain.chainId;
    // An authorization signs the address's nonce when it is applied: each one applied before it adds one.
    const authorization = (address: string, nonce: number) => authorizationBody(owner.authorizeSync({ address, nonce: BigInt(nonce), chainId: BigInt(chainId) }));
    const revoke = (nonce: number) =>
      this.post(lane, "revocation", plan, asset, owner.address, "/v1/revocations", { external_id: this.externalId(), chain_id: chainId, account: owner.address, authorization: authorization(ZeroAddress, nonce) });
    const sweep = async (delegateAtNonce?: number) => {
      // The deposit arrives on chain before the partner asks for its sweep.
      if (asset === "native") await lane.chain.setBalance(owner.address, amount);
      else await lane.chain.mintUsdt(owner.address, amount);
      const body = { external_id: this.externalId(), chain_id: chainId, hot_wallet: lane.hotWallet, account: owner.address, token: asset };
      return this.post(lane, "sweep", plan, asset, owner.address, "/v1/sweeps", delegateAtNonce === undefined ? body : { ...body, authorization: authorization(lane.delegate, delegateAtNonce) });
    };
    try {
      const nonce = await lane.chain.provider.getTransactionCount(owner.address);
      const operations: Operation[] = [];
      if (plan === "revoke") operations.push(await revoke(nonce));
      else if (plan === "sweep+revoke") operations.push(await sweep(), await revoke(nonce));
      else if (plan === "revoke+sweep") operations.push(await revoke(nonce), await sweep(nonce + 1));
      else operations.push(await sweep(plan === "repeat" ? undefined : nonce));
      void Promise.all(operations.map((o) => this.untilFinal(o)))
        .then(async () => {
          const code = await lane.chain.provider.getCode(owner.address);
          deposit.delegated = code.toLowerCase() === `0xef0100${lane.delegate.slice(2).toLowerCase()}`;
          deposit.busy = false;
        })
        .catch((err: unknown) => this.errors.push(`${lane.name} ${owner.address} after ${plan}: ${String(err)}`));
    } catch (err) {
      this.errors.push(`${lane.name} ${owner.address} ${plan}: ${String(err)}`);
    }
  }

  private externalId(): string {
    return `${this.options.runId}-${++this.count}`;
  }

  /** POSTs until answered other than by a 5xx; a 202 or a 200 (the external_id's existing one) is the operation. */
  private async post(lane: Lane, kind: Operation["kind"], plan: Plan, asset: Asset, account: string, path: string, body: unknown): Promise<Operation> {
    for (let posts = 1; ; posts++) {
      try {
        const res = await fetch(this.options.api + path, {
          method: "POST",
          headers: { ...lane.partner.auth, "content-type": "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(10_000),
        });
        if (res.status === 200 || res.status === 202) {
          const operation: Operation = { kind, plan, lane: lane.name, account, asset, id: ((await res.json()) as { id: string }).id, posts };
          this.operations.push(operation);
          return operation;
        }
        if (res.status < 500) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
      } catch (err) {
        if (err instanceof Error && err.message.startsWith("POST ")) throw err;
        // no answer (the API is down or restarting) or a timeout: the same request again
      }
      if (this.closing.signal.aborted) throw new Error(`POST ${path} given up after ${posts} tries`);
      await sleep(Math.min(2_000, 100 * 2 ** posts));
    }
  }

  private untilFinal(operation: Operation): Promise<void> {
    return new Promise((done) => this.awaitingFinal.set(operation.id, { kind: operation.kind, done }));
  }

  /** One query per table and second for every operation awaiting its final state. */
  private async pollFinal(): Promise<void> {
    const { db } = this.options;
    while (!this.closing.signal.aborted) {
      const waiting = [...this.awaitingFinal.entries()];
      const ids = (kind: Operation["kind"]) => waiting.filter(([, w]) => w.kind === kind).map(([id]) => id);
      try {
        const [sweeps, revocations] = await Promise.all([
          db.sweep.findMany({ where: { id: { in: ids("sweep") }, status: { in: FINAL.sweep } }, select: { id: true } }),
          db.revocation.findMany({ where: { id: { in: ids("revocation") }, status: { in: FINAL.revocation } }, select: { id: true } }),
        ]);
        for (const { id } of [...sweeps, ...revocations]) {
          this.awaitingFinal.get(id)?.done();
          this.awaitingFinal.delete(id);
        }
      } catch (err) {
        this.errors.push(`watching final states: ${String(err)}`);
      }
      await sleep(1_000, undefined, { signal: this.closing.signal }).catch(() => undefined);
    }
  }
}
