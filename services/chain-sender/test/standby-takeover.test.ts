/**
 * Two chain-senders of chain 97 in a running suite: one leads (it alone sends and watches), the
 * other waits on standby. The leader is killed while its sweep transaction is stored and not yet
 * confirmed, and the node loses it: the standby takes over within seconds and sends the stored
 * bytes, never a second transaction. A third process then waits on standby, and the second hands
 * over to it on SIGTERM. Every sweep is swept once.
 */
import { contractAt } from "@sweep/contracts";
import { activeHotWallet, createTestPartner, eventually, fundedDeposit, nonceConflicts, partnerApi, readMetrics, startStack, type ServiceProcess, type Stack, type TestPartner } from "@sweep/testkit";
import { Wallet, parseEther } from "ethers";

const CHAIN_ID = 97;

type Deposit = Awaited<ReturnType<typeof fundedDeposit>>;

/** The process's sweep_chain_sender_leader gauge for chain 97, from its /metrics. */
async function leaderGauge(service: ServiceProcess): Promise<number | undefined> {
  return (await readMetrics(service.metricsPort)).sum("sweep_chain_sender_leader", { chain_id: String(CHAIN_ID) });
}

describe("a standby chain-sender takes over from a dead leader", () => {
  let stack: Stack;
  let partner: TestPartner;
  const hotWallet = Wallet.createRandom().address;
  const api = partnerApi(() => stack.api, () => partner.auth);
  const minted = new Map<string, bigint>();
  const sweepIds: string[] = [];

  beforeAll(async () => {
    // Every process serves chain 97 only.
    stack = await startStack({ services: ["ledger", "chain-sender", "batcher", "api-gateway"], env: { CHAINS: String(CHAIN_ID), LEADER_POLL_MS: "250" } });
    partner = await createTestPartner(stack.db, "standby");
    await stack.chain(CHAIN_ID).setBalance(partner.gasWallet, parseEther("10"));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  /** Deposit addresses holding USDT, each a different amount, with their authorizations of the delegate. */
  async function deposits(delegate: string, count: number): Promise<Deposit[]> {
    const amounts = Array.from({ length: count }, (_x, i) => BigInt(100 + minted.size + i));
    const funded = await Promise.all(amounts.map((amount) => fundedDeposit(stack.chain(CHAIN_ID), delegate, amount)));
    funded.forEach(({ owner }, i) => minted.set(owner.address, amounts[i]!));
    return funded;
  }

  async function postSweeps(funded: Deposit[]): Promise<void> {
    const posted = await Promise.all(
      funded.map(({ owner, authorization }) => api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: owner.address, token: "USDT", authorization })),
    );
    for (const p of posted) expect(p.status).toBe(202);
    sweepIds.push(...posted.map((p) => p.body.id as string));
  }

  const allEnded = () =>
    eventually(
      "every sweep to end",
      async () => {
        const all = await Promise.all(sweepIds.map(async (id) => (await api("GET", `/v1/sweeps/${id}`)).body));
        return all.every((s) => s.status !== "queued" && s.status !== "processing") ? all : undefined;
      },
      45_000,
      250,
    );

  it("sends each sweep once across a SIGKILL of the leader and a SIGTERM hand-over; a leader that loses its lease exits", async () => {
    const chain = stack.chain(CHAIN_ID);
    const first = stack.services.get("chain-sender")!;
    // The first process leads: it deploys the delegate.
    const { delegate } = await activeHotWallet(api, CHAIN_ID, hotWallet, 30_000);

    const second = await stack.startReplica("chain-sender");
    await eventually("the second process on standby", async () => (second.output().includes("standby for chain 97") ? true : undefined), 10_000);
    expect(await leaderGauge(first)).toBe(1);
    expect(await leaderGauge(second)).toBe(0);
    // Alive and ready to take over.
    expect((await fetch(`http://127.0.0.1:${second.port}/healthz`)).status).toBe(204);
    expect(first.output()).toContain("leader of chain 97");

    const firstWave = await deposits(delegate, 8);
    // No block until the leader is dead: its transaction stays stored and unconfirmed.
    await chain.provider.send("evm_setAutomine", [false]);
    await postSweeps(firstWave);
    const caught = await eventually(
      "a sweep transaction stored and not yet confirmed",
      async () => (await stack.db.chainTransaction.findFirst({ where: { status: { in: ["signed", "broadcast"] }, batch: { purpose: "sweep" } } })) ?? undefined,
      30_000,
      50,
    );
    await first.kill();
    const killedAt = Date.now();
    // The node loses it too: only the stored bytes can still send this batch.
    await chain.provider.send("anvil_dropTransaction", [caught.hash]);
    expect(await chain.provider.getTransaction(caught.hash)).toBeNull();

    await eventually("the standby to lead", async () => ((await leaderGauge(second)) === 1 ? true : undefined), 10_000, 100);
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    expect(second.output()).toContain("leader of chain 97");
    await eventually("the stored transaction sent again by the new leader", async () => (await chain.provider.getTransaction(caught.hash)) ?? undefined, 10_000, 100);
    await chain.provider.send("evm_setAutomine", [true]);
    await chain.provider.send("evm_mine", []);
    await postSweeps(await deposits(delegate, 4));
    await allEnded();
    // The stored transaction itself was mined: no other was signed for its nonce.
    expect(await stack.db.chainTransaction.findUniqueOrThrow({ where: { id: caught.id } })).toMatchObject({ hash: caught.hash, status: "confirmed", succeeded: true });
    expect(await stack.db.chainTransaction.count({ where: { gasWalletId: caught.gasWalletId, nonce: caught.nonce } })).toBe(1);

    const third = await stack.startReplica("chain-sender");
    await eventually("the third process on standby", async () => (third.output().includes("standby for chain 97") ? true : undefined), 10_000);
    const handedAt = Date.now();
    expect(await second.stop()).toBe(0);
    await eventually("the third to lead", async () => ((await leaderGauge(third)) === 1 ? true : undefined), 10_000, 100);
    expect(Date.now() - handedAt).toBeLessThan(5_000);
    await postSweeps(await deposits(delegate, 3));

    const ended = await allEnded();
    expect(ended.map((s) => s.status)).toEqual(Array(sweepIds.length).fill("swept"));
    const usdt = contractAt("DevToken", chain.usdt.address, chain.provider);
    for (const owner of minted.keys()) expect(await usdt.getFunction("balanceOf")(owner)).toBe(0n);
    const sweptTotal = ended.reduce((sum, s) => sum + BigInt(s.swept_amount), 0n);
    expect(sweptTotal).toBe([...minted.values()].reduce((a, b) => a + b, 0n));
    expect(await usdt.getFunction("balanceOf")(hotWallet)).toBe(sweptTotal);
    expect(await stack.db.event.count({ where: { partnerId: partner.partnerId, type: "sweep.swept" } })).toBe(sweepIds.length);

    // Per nonce of the gas wallet: one transaction content (replacements differ only in fees), and one mined.
    const stored = await stack.db.chainTransaction.findMany({ where: { gasWalletId: caught.gasWalletId } });
    expect(nonceConflicts(stored)).toEqual([]);
    const mined = await chain.provider.getTransactionCount(partner.gasWallet, "latest");
    expect(stored.filter((t) => t.status === "confirmed").length).toBe(mined);
    expect(new Set(stored.map((t) => t.nonce)).size).toBe(mined);

    // CHAINS=97: none of them served the other chain.
    for (const process of [first, second, third]) expect(process.output()).not.toMatch(/(leader of|standby for) chain 11155111/);

    // The leader's lease session is cut (say, by an operator): it may be replaced already, so it stops at once, exit status 1.
    await stack.db.$queryRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'chain-sender lease 97' AND datname = current_database()`;
    await eventually("the leader to exit", async () => (await fetch(`http://127.0.0.1:${third.port}/healthz`).then(() => undefined, () => true)), 10_000, 100);
    expect(await third.stop()).toBe(1);
    expect(third.output()).toContain("lost the leader lease of chain 97");
  }, 150_000);
});
