import { decodeSweepOutcomes } from "@sweep/contracts";
import {
  OP_STACK_TEST_CHAIN,
  activeHotWallet,
  authorizationBody,
  configuredChainEnv,
  createTestPartner,
  eventually,
  fundedDeposit,
  matchSweeps,
  partnerApi,
  settledGasWallet,
  startStack,
  untilEnded,
  type ConfiguredTestChain,
  type NodeKind,
  type Stack,
  type TestPartner,
} from "@sweep/testkit";
import { Wallet, parseEther } from "ethers";

// A platform team adds a chain the service has never heard of, by configuration alone: chain
// 777001, "Acme Devnet", whose coin is ACME, on a local anvil with the platform contracts and a
// 6-decimal USDT. The stack serves that chain only (ENV_CHAINS=777001). A partner sees it by its
// configured name and ticker, registers a hot wallet there, and sweeps USDT and the native coin
// from first-time deposit addresses; a chain the configuration does not list is refused; each
// deposit is swept once on chain, and the gas wallet's ledger equals its balance to the wei.
// That chain settles at the node's finalized block (CONFIRMATIONS_777001=finalized, as BSC's fast
// finality would be run): a mined deployment or sweep stays unsettled, with no webhook event, until
// anvil's finalized block (64 behind its head) passes it; the story mines the blocks that take it there.
// Then the same for an OP-stack chain, 777010 "Acme Rollup" (FEE_MODEL op-stack), on anvil in
// optimism mode with L1Block's fee values set: every transaction also pays an L1 data fee that its
// receipt does not name, and the ledger still equals the balance to the wei, L1 fees included.

const FUNDING = parseEther("10");

/** anvil names as finalized the block 64 below its head (two epochs of 32 slots) */
const ANVIL_FINALIZED_DEPTH = 64;

const CHAINS: Array<ConfiguredTestChain & { node: NodeKind; confirmations: "1" | "finalized" }> = [
  { chainId: 777001, name: "Acme Devnet", ticker: "ACME", feeModel: "l1", node: "anvil", confirmations: "finalized" },
  { ...OP_STACK_TEST_CHAIN, node: "anvil-optimism", confirmations: "1" },
];

interface Sweep {
  id: string;
  status: string;
  swept_amount?: string;
}

describe.each(CHAINS)("a chain added by configuration alone takes sweeps end to end: $name ($feeModel, on $node, final at $confirmations)", (configured) => {
  const { chainId: CHAIN_ID, name, ticker } = configured;
  let stack: Stack;
  let partner: TestPartner;
  let delegate: string;
  const hotWallet = Wallet.createRandom().address;
  const api = partnerApi(() => stack.api, () => partner.auth);
  const chain = () => stack.chain(CHAIN_ID);
  const finalized = configured.confirmations === "finalized";

  /**
   * On a chain that settles at finality: once `mined` holds, the outcome stays unsettled a few watcher
   * rounds (`settled` false; at 1 confirmation it would settle in one), then blocks are mined until the
   * node's finalized block passes it. Elsewhere nothing to do: the outcome settles at its depth.
   */
  async function settleAtFinality(mined: () => Promise<boolean>, settled: () => Promise<boolean>) {
    if (!finalized) return;
    await eventually("the transaction mined", async () => ((await mined()) ? true : undefined), 60_000, 250);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await settled()).toBe(false);
    await chain().provider.send("anvil_mine", [`0x${(ANVIL_FINALIZED_DEPTH + 1).toString(16)}`]);
  }

  /** whether some of `sent` have a receipt on chain */
  const minedOnChain = async (sent: Array<{ hash: string }>) => (await Promise.all(sent.map((t) => chain().provider.getTransactionReceipt(t.hash)))).some((r) => r !== null);

  beforeAll(async () => {
    stack = await startStack({ env: { ...configuredChainEnv(configured), [`CONFIRMATIONS_${CHAIN_ID}`]: configured.confirmations }, node: configured.node });
    partner = await createTestPartner(stack.db, "configured chain");
    await chain().setBalance(partner.gasWallet, FUNDING);
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it("shows the partner the configured chain by its name and coin, and refuses a chain the configuration does not list", async () => {
    const balance = await api("GET", "/v1/balance");
    expect(balance.status).toBe(200);
    expect(balance.body.chains.map((c: { chain_id: number; name: string; native: string }) => [c.chain_id, c.name, c.native])).toEqual([[CHAIN_ID, name, ticker]]);
    const elsewhere = await api("POST", "/v1/hot-wallets", { chain_id: 97, address: hotWallet });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.error.code).toBe("unknown_chain");
    expect(elsewhere.body.error.message).toContain(String(CHAIN_ID));
  });

  it("deploys the hot wallet's delegate and sweeps USDT and the native coin from first-time deposit addresses, each once", async () => {
    const active = activeHotWallet(api, CHAIN_ID, hotWallet, 90_000);
    // The stack is this story's own: the chain's one transaction so far is the deployment.
    await settleAtFinality(
      async () => minedOnChain(await stack.db.chainTransaction.findMany({ where: { chainId: CHAIN_ID } })),
      async () => (await api("GET", "/v1/hot-wallets")).body.hot_wallets.some((h: { chain_id: number; status: string }) => h.chain_id === CHAIN_ID && h.status === "active"),
    );
    delegate = (await active).delegate;
    const usdtDeposits = await Promise.all([1_000_000n, 2_500_000n].map((amount) => fundedDeposit(chain(), delegate, amount)));
    const nativeOwner = Wallet.createRandom();
    await chain().setBalance(nativeOwner.address, parseEther("0.3"));
    const nativeAuthorization = authorizationBody(nativeOwner.authorizeSync({ address: delegate, nonce: 0n, chainId: BigInt(CHAIN_ID) }));
    const posted = await Promise.all([
      ...usdtDeposits.map((d) => api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: d.owner.address, token: "USDT", authorization: d.authorization })),
      // The native coin by its configured ticker, as the spec lets a partner name it.
      api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: nativeOwner.address, token: ticker, authorization: nativeAuthorization }),
    ]);
    expect(posted.map((p) => p.status)).toEqual([202, 202, 202]);
    const sweepsOf = () => Promise.all(posted.map(async (p) => (await api("GET", `/v1/sweeps/${p.body.id}`)).body as Sweep));
    await settleAtFinality(
      async () => {
        const batchIds = (await stack.db.sweep.findMany({ where: { partnerId: partner.partnerId }, select: { batchId: true } })).map((s) => s.batchId);
        return !batchIds.includes(null) && minedOnChain(await stack.db.chainTransaction.findMany({ where: { batchId: { in: batchIds as string[] } } }));
      },
      async () => (await sweepsOf()).some((s) => s.status === "swept") || (await stack.db.event.count({ where: { partnerId: partner.partnerId, type: "sweep.swept" } })) > 0,
    );
    const ended = await Promise.all(posted.map((p) => untilEnded<Sweep>(api, "/v1/sweeps", p.body.id)));
    expect(ended.map((s) => [s.status, s.swept_amount])).toEqual([
      ["swept", "1000000"],
      ["swept", "2500000"],
      ["swept", parseEther("0.3").toString()],
    ]);
    expect(await chain().provider.getBalance(nativeOwner.address)).toBe(0n);
  }, 120_000);

  it("keeps the gas wallet's ledger equal to its balance on the configured chain, every deposit swept once", async () => {
    // The reconciliation books up to the final block: past the last sweep once more blocks are mined.
    if (finalized) await chain().provider.send("anvil_mine", [`0x${(ANVIL_FINALIZED_DEPTH + 1).toString(16)}`]);
    const settled = await settledGasWallet(stack.db, chain(), partner.partnerId, 60_000, finalized ? ANVIL_FINALIZED_DEPTH + 1 : 1);
    const sweeps = await stack.db.sweep.findMany({ where: { partnerId: partner.partnerId } });
    const logs = await chain().provider.getLogs({ address: delegate, fromBlock: 0, toBlock: "latest" });
    const onChain = logs.flatMap((log) => decodeSweepOutcomes([log], delegate).flatMap((o) => (o.swept ? [{ account: o.account, txHash: log.transactionHash, amount: o.amount }] : [])));
    expect(matchSweeps(sweeps.map((s) => ({ id: s.id, account: s.account, txHash: s.txHash!, amount: BigInt(s.sweptAmount!.toFixed()) })), onChain)).toEqual({ doubles: [], missing: [] });
    const { gas, withdrawal, topup } = settled.entries;
    expect(topup).toBe(FUNDING);
    expect(gas + withdrawal + topup).toBe(settled.balance);
    expect(gas).toBeLessThan(0n);
    // The L1 data fee was read for every transaction (the ledger above holds it): nonzero exactly where the chain charges one.
    const transactions = await stack.db.chainTransaction.findMany({ where: { chainId: CHAIN_ID, status: "confirmed" }, select: { l1Fee: true } });
    expect(transactions.length).toBeGreaterThanOrEqual(2);
    expect(transactions.every((t) => (configured.feeModel === "op-stack" ? BigInt(t.l1Fee!.toFixed()) > 0n : t.l1Fee?.toFixed() === "0"))).toBe(true);
  }, 90_000);
});
