import {
  OP_STACK_TEST_CHAIN,
  activeHotWallet,
  configuredChainEnv,
  createTestPartner,
  eventually,
  partnerApi,
  runSweepctl,
  settledGasWallet,
  startStack,
  type Stack,
  type TestPartner,
} from "@sweep/testkit";
import { Wallet, parseEther } from "ethers";

// The OP-stack money story on Hardhat 3's node (`chainType: "op"`), whose receipts name the L1 data
// fee, where anvil's optimism mode leaves it out: everything it accepts (it refuses type-4
// transactions, so no sweep and no revocation here; anvil's optimism mode has those, in the money
// story). A partner's hot wallet delegate is deployed, the operator charges a fee and withdraws it to
// the treasury, a nonce the gas wallet lost is filled, then the operator drains the partner's gas
// wallet into a successor's: every transaction pays an L1 data fee, the service takes it from the
// receipt, and both gas wallets' ledgers equal their chain balances to the wei.

const CHAIN_ID = OP_STACK_TEST_CHAIN.chainId;
const TREASURY = Wallet.createRandom().address;

describe("on Hardhat 3's OP node, deployment, withdrawal and drain add up to the wei, L1 fees from the receipts", () => {
  let stack: Stack;
  let partner: TestPartner;
  const api = partnerApi(() => stack.api, () => partner.auth);
  const chain = () => stack.chain(CHAIN_ID);
  const sweepctl = (...args: string[]) => runSweepctl(args, stack.env);
  const l1FeesOf = async (partnerId: string) => {
    const gasWallet = await stack.db.gasWallet.findUniqueOrThrow({ where: { partnerId } });
    const confirmed = await stack.db.chainTransaction.findMany({ where: { chainId: CHAIN_ID, gasWalletId: gasWallet.id, status: "confirmed" }, select: { hash: true, l1Fee: true } });
    return Promise.all(confirmed.map(async (t) => ({ booked: BigInt(t.l1Fee!.toFixed()), named: BigInt((await chain().provider.send("eth_getTransactionReceipt", [t.hash])).l1Fee) })));
  };

  beforeAll(async () => {
    stack = await startStack({
      node: "hardhat-op",
      env: { ...configuredChainEnv(OP_STACK_TEST_CHAIN), [`TREASURY_ADDRESS_${CHAIN_ID}`]: TREASURY, WITHDRAW_INTERVAL_MS: "0", RECONCILE_INTERVAL_MS: "200", NONCE_GAP_GRACE_MS: "1000" },
    });
    partner = await createTestPartner(stack.db, "hardhat op money");
    await chain().setBalance(partner.gasWallet, parseEther("5"));
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it("deploys a hot wallet's delegate and withdraws a charged fee, booking each transaction's L1 fee as its receipt names it", async () => {
    await activeHotWallet(api, CHAIN_ID, Wallet.createRandom().address);
    expect((await sweepctl("ledger", "charge", partner.partnerId, "--chain", String(CHAIN_ID), "--amount", "10000000000000000", "--note", "setup fee")).code).toBe(0);
    expect((await sweepctl("fees", "withdraw", "--chain", String(CHAIN_ID))).code).toBe(0);
    await eventually("the withdrawal booked", async () => (await stack.db.ledgerEntry.findFirst({ where: { partnerId: partner.partnerId, kind: "withdrawal" } })) ?? undefined, 60_000, 500);
    expect(await chain().provider.getBalance(TREASURY)).toBeGreaterThan(0n);

    const settled = await settledGasWallet(stack.db, chain(), partner.partnerId);
    expect(settled.entries.gas + settled.entries.withdrawal + settled.entries.topup).toBe(settled.balance);
    const fees = await l1FeesOf(partner.partnerId);
    expect(fees.length).toBe(2);
    for (const { booked, named } of fees) {
      expect(named).toBeGreaterThan(0n);
      expect(booked).toBe(named);
    }
  }, 120_000);

  it("fills a nonce the gas wallet lost with a self-transfer, its gas and L1 fee booked, and the next transaction goes through", async () => {
    const gasWallet = await stack.db.gasWallet.findUniqueOrThrow({ where: { partnerId: partner.partnerId } });
    // A transaction of the next nonce that vanished (signed, stored by a process whose database write was lost, dropped by the node):
    // the next deployment takes the nonce after it, which the chain cannot run until something fills the gap.
    const state = await stack.db.gasWalletChainState.findUniqueOrThrow({ where: { gasWalletId_chainId: { gasWalletId: gasWallet.id, chainId: CHAIN_ID } } });
    const lost = state.nextNonce!;
    expect(lost).toBe(BigInt(await chain().provider.getTransactionCount(partner.gasWallet, "latest")));
    await stack.db.gasWalletChainState.update({ where: { gasWalletId_chainId: { gasWalletId: gasWallet.id, chainId: CHAIN_ID } }, data: { nextNonce: lost + 1n } });

    await activeHotWallet(api, CHAIN_ID, Wallet.createRandom().address);
    const fill = await stack.db.chainTransaction.findFirstOrThrow({ where: { chainId: CHAIN_ID, gasWalletId: gasWallet.id, nonce: lost }, include: { batch: true } });
    expect(fill).toMatchObject({ status: "confirmed", batch: { purpose: "gap_fill" } });
    await eventually("the gap fill's gas booked", async () => (await stack.db.ledgerEntry.findFirst({ where: { partnerId: partner.partnerId, kind: "gas", txHash: fill.hash } })) ?? undefined);

    const settled = await settledGasWallet(stack.db, chain(), partner.partnerId);
    expect(settled.entries.gas + settled.entries.withdrawal + settled.entries.topup).toBe(settled.balance);
    const fees = await l1FeesOf(partner.partnerId);
    expect(fees.length).toBe(4);
    expect(fees.every(({ booked, named }) => named > 0n && booked === named)).toBe(true);
  }, 120_000);

  it("drains the gas wallet into its successor's, both ledgers still adding up to the wei", async () => {
    const successor = await createTestPartner(stack.db, "hardhat op money, rotated key");
    expect((await sweepctl("partner", "disable", partner.partnerId)).code).toBe(0);
    const drained = await sweepctl("gas-wallet", "drain", "--partner", partner.partnerId, "--to", successor.gasWallet, "--chain", String(CHAIN_ID), "--json");
    expect(drained.code).toBe(0);
    const moved = await eventually("the drain booked", async () => (await stack.db.ledgerEntry.findFirst({ where: { partnerId: partner.partnerId, chainId: CHAIN_ID, dedupeKey: { startsWith: "drain:" } } })) ?? undefined);

    const old = await settledGasWallet(stack.db, chain(), partner.partnerId);
    expect(old.entries.gas + old.entries.withdrawal + old.entries.topup).toBe(old.balance);
    const received = await settledGasWallet(stack.db, chain(), successor.partnerId);
    expect(received.balance).toBe(-BigInt(moved.amount.toFixed()));
    expect(received.entries.topup).toBe(received.balance);
    const fees = await l1FeesOf(partner.partnerId);
    expect(fees.length).toBe(5);
    expect(fees.every(({ booked, named }) => named > 0n && booked === named)).toBe(true);
  }, 120_000);
});
