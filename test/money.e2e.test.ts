import {
  NODE_KINDS,
  OP_STACK_TEST_CHAIN,
  authorizationBody,
  configuredChainEnv,
  createTestPartner,
  eventually,
  partnerApi,
  untilEnded,
  runSweepctl,
  settledGasWallet,
  startStack,
  type NodeKind,
  type Stack,
  type TestPartner,
} from "@sweep/testkit";
import { Wallet, ZeroAddress, parseEther, type BaseWallet } from "ethers";

// The money invariant, through the running services on anvil and on hardhat's node (which
// refunds authorizations as EIP-7702 says), and on an OP-stack chain (anvil in optimism mode, whose
// every transaction also pays an L1 data fee its receipt does not name), each with 1 s blocks: after
// first and repeat token sweeps, a native sweep, a hot-wallet deployment, a revocation, outside
// top-ups, a charge, a credit and a withdrawal, the gas wallet's balance on chain equals the sum of
// its chain-moving ledger entries (gas, withdrawal, topup), and fees_due equals the fees, charges and
// credits minus the withdrawals; then a drain.

const TREASURY = Wallet.createRandom().address;
const CHAINS: Array<{ node: NodeKind; chainId: number; env: Record<string, string> }> = [
  ...NODE_KINDS.map((node) => ({ node, chainId: 97, env: {} })),
  { node: "anvil-optimism", chainId: OP_STACK_TEST_CHAIN.chainId, env: configuredChainEnv(OP_STACK_TEST_CHAIN) },
];

interface LedgerEntry {
  id: number;
  kind: "gas" | "fee" | "fee_charge" | "fee_credit" | "withdrawal" | "topup";
  amount: string;
  tx_hash: string | null;
  note: string | null;
}

describe.each(CHAINS)("on $node, chain $chainId, the partner's money adds up to the wei", ({ node, chainId: CHAIN_ID, env }) => {
  let stack: Stack;
  let partner: TestPartner;
  const hotWallet = Wallet.createRandom().address;
  let delegate: string;

  const api = partnerApi(() => stack.api, () => partner.auth);
  const chain = () => stack.chain(CHAIN_ID);

  /** sweepctl against this stack's database and broker prefix. */
  const sweepctl = (...args: string[]) => runSweepctl(args, stack.env);

  const authorize = (owner: BaseWallet, address: string, nonce: number) => authorizationBody(owner.authorizeSync({ address, nonce: BigInt(nonce), chainId: BigInt(CHAIN_ID) }));
  const sweep = async (body: Record<string, unknown>) => untilEnded(api, "/v1/sweeps", (await api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, ...body })).body.id);

  async function ledgerEntries(): Promise<LedgerEntry[]> {
    const entries: LedgerEntry[] = [];
    let cursor: string | undefined;
    do {
      const page = await api("GET", `/v1/ledger?chain_id=${CHAIN_ID}&limit=200${cursor ? `&cursor=${cursor}` : ""}`);
      entries.push(...(page.body.items as LedgerEntry[]));
      cursor = page.body.next_cursor ?? undefined;
    } while (cursor);
    return entries;
  }
  const sum = (entries: LedgerEntry[], kinds: LedgerEntry["kind"][]) => entries.filter((e) => kinds.includes(e.kind)).reduce((total, e) => total + BigInt(e.amount), 0n);

  beforeAll(async () => {
    stack = await startStack({ blockTime: 1, node, env: { ...env, [`TREASURY_ADDRESS_${CHAIN_ID}`]: TREASURY, WITHDRAW_INTERVAL_MS: "0", RECONCILE_INTERVAL_MS: "200" } });
    partner = await createTestPartner(stack.db, "money");
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it("balances the gas wallet's ledger against the chain after a mixed run, and fees due against the fee entries", async () => {
    // An outside top-up before anything else: the reconciliation finds it.
    await chain().setBalance(partner.gasWallet, parseEther("50"));

    delegate = (await api("POST", "/v1/hot-wallets", { chain_id: CHAIN_ID, address: hotWallet })).body.delegate;
    await eventually("the hot wallet to be active", async () => (await api("GET", "/v1/hot-wallets")).body.hot_wallets.find((h: { status: string }) => h.status === "active"));

    // Sweeps requested together share a batch: its base gas spread over them leaves fees to charge.
    const tokenOwners = Array.from({ length: 8 }, () => Wallet.createRandom());
    const nativeOwner = Wallet.createRandom();
    await Promise.all(tokenOwners.map((owner) => chain().mintUsdt(owner.address, 5_000_000n)));
    await chain().setBalance(nativeOwner.address, parseEther("2"));
    const firstTime = await Promise.all([
      ...tokenOwners.map((owner) => sweep({ account: owner.address, token: "USDT", authorization: authorize(owner, delegate, 0) })),
      sweep({ account: nativeOwner.address, token: "native", authorization: authorize(nativeOwner, delegate, 0) }),
    ]);
    expect(firstTime.map((s) => s.status)).toEqual(Array(9).fill("swept"));
    await Promise.all(tokenOwners.map((owner) => chain().mintUsdt(owner.address, 3_000_000n)));
    const repeats = await Promise.all(tokenOwners.map((owner) => sweep({ account: owner.address, token: "USDT" })));
    expect(repeats.map((s) => [s.status, (s as { kind?: string }).kind])).toEqual(Array(8).fill(["swept", "repeat"]));
    const tokenOwner = tokenOwners[0]!;

    // The token owner's nonce is 1 after its delegation.
    const revocation = await api("POST", "/v1/revocations", { chain_id: CHAIN_ID, account: tokenOwner.address, authorization: authorize(tokenOwner, ZeroAddress, 1) });
    expect(await untilEnded(api, "/v1/revocations", revocation.body.id)).toMatchObject({ status: "revoked" });

    // A second outside top-up, while the wallet has history.
    const before = await chain().provider.getBalance(partner.gasWallet);
    await chain().setBalance(partner.gasWallet, before + parseEther("3"));

    expect((await sweepctl("ledger", "charge", partner.partnerId, "--chain", String(CHAIN_ID), "--amount", "10000000000000000", "--note", "setup fee")).code).toBe(0);
    expect((await sweepctl("ledger", "credit", partner.partnerId, "--chain", String(CHAIN_ID), "--amount", "2000000000000", "--note", "goodwill")).code).toBe(0);

    const dueBefore = BigInt((await api("GET", "/v1/balance")).body.chains.find((c: { chain_id: number }) => c.chain_id === CHAIN_ID).fees_due);
    expect(dueBefore).toBeGreaterThan(0n);
    expect((await sweepctl("fees", "withdraw", "--chain", String(CHAIN_ID))).code).toBe(0);
    const withdrawal = await eventually("the withdrawal booked", async () => (await ledgerEntries()).find((e) => e.kind === "withdrawal"), 60_000, 500);
    const treasury = await chain().provider.getBalance(TREASURY);
    expect(treasury).toBeGreaterThan(0n);
    // What left the wallet (value and gas) came out of the fee reserve and never exceeded it.
    expect(-BigInt(withdrawal.amount)).toBeLessThanOrEqual(dueBefore);
    expect(-BigInt(withdrawal.amount)).toBeGreaterThan(treasury);

    // Every transaction settled and the reconciliation caught up with the head.
    const { balance } = await settledGasWallet(stack.db, chain(), partner.partnerId);
    const entries = await ledgerEntries();

    expect(entries.filter((e) => e.kind === "topup").length).toBeGreaterThanOrEqual(2);
    expect(entries.filter((e) => e.kind === "fee").length).toBeGreaterThanOrEqual(2);
    expect(sum(entries, ["gas", "withdrawal", "topup"])).toBe(balance);

    const reported = (await api("GET", "/v1/balance")).body.chains.find((c: { chain_id: number }) => c.chain_id === CHAIN_ID);
    const accrued = -sum(entries, ["fee", "fee_charge", "fee_credit"]);
    const withdrawn = -sum(entries, ["withdrawal"]);
    expect(reported).toMatchObject({ balance: balance.toString(), fees_accrued: accrued.toString(), fees_withdrawn: withdrawn.toString() });
    expect(BigInt(reported.fees_due)).toBe(accrued - withdrawn > 0n ? accrued - withdrawn : 0n);
    expect(BigInt(reported.available)).toBe(balance - BigInt(reported.fees_due) > 0n ? balance - BigInt(reported.fees_due) : 0n);

    // The ledger above holds every transaction's L1 data fee, and the fees their blocks' least L1 fee (the classic way's):
    // nonzero on each transaction where the chain charges one, and nowhere else.
    const confirmed = await stack.db.chainTransaction.findMany({ where: { chainId: CHAIN_ID, status: "confirmed" }, select: { l1Fee: true, minimumL1Fee: true } });
    const l1Fees = confirmed.flatMap((t) => [BigInt(t.l1Fee!.toFixed()), BigInt(t.minimumL1Fee!.toFixed())]);
    expect(confirmed.length).toBeGreaterThanOrEqual(5);
    expect(l1Fees.filter((fee) => (node === "anvil-optimism" ? fee === 0n : fee !== 0n))).toEqual([]);
  }, 150_000);

  // A key rotation's last step (docs/key-custody.md): the old gas wallet's balance moves to the new one, fees due aside.
  it("drains the partner's gas wallet into its successor's, both ledgers still adding up to the wei", async () => {
    const successor = await createTestPartner(stack.db, "money, rotated key");
    const drain = () => sweepctl("gas-wallet", "drain", "--partner", partner.partnerId, "--to", successor.gasWallet, "--chain", String(CHAIN_ID), "--json");

    const whileEnabled = await drain();
    expect(whileEnabled.code).toBe(1);
    expect(whileEnabled.stderr).toMatch(/is enabled: disable it first/);

    expect((await sweepctl("partner", "disable", partner.partnerId)).code).toBe(0);
    const drained = await drain();
    expect(drained.code).toBe(0);
    const feesKept = BigInt(JSON.parse(drained.stdout).drains[0].fees_due_kept);

    // The drain booked first: until the chain-sender takes the batch, nothing of the wallet is in flight and it looks at rest.
    const moved = await eventually("the drain booked", async () => (await stack.db.ledgerEntry.findFirst({ where: { partnerId: partner.partnerId, chainId: CHAIN_ID, dedupeKey: { startsWith: "drain:" } } })) ?? undefined);
    const old = await settledGasWallet(stack.db, chain(), partner.partnerId);
    expect(moved.note).toBe(`drained to ${successor.gasWallet}`);
    expect(old.entries.gas + old.entries.withdrawal + old.entries.topup).toBe(old.balance);
    // What stays is the fees due and what the transfer's gas limit reserved beyond its gas: under 0.001 ether here.
    expect(old.balance).toBeGreaterThanOrEqual(feesKept);
    expect(old.balance - feesKept).toBeLessThan(parseEther("0.001"));

    const sent = -BigInt(moved.amount.toFixed());
    expect(sent).toBeGreaterThan(parseEther("50"));
    const received = await settledGasWallet(stack.db, chain(), successor.partnerId);
    expect(received.balance).toBe(sent);
    expect(received.entries.topup).toBe(sent);
  }, 120_000);
});
