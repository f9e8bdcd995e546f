/**
 * sweep_gas_wallets_low through the real parts: gas wallets funded on a real anvil, their balances
 * read by the ledger's reconciler into the database, and the gauge read from there at a scrape.
 */
import { createLogger } from "@sweep/common";
import { createDb, toDecimal, type Db } from "@sweep/db";
import { queueNames } from "@sweep/messaging";
import { reportLowGasWallets, scrapeMetrics } from "@sweep/metrics";
import { createTestDatabase, createTestPartner, parsePrometheusText, startTestChain, type TestChain, type TestPartner } from "@sweep/testkit";
import { Wallet, parseEther } from "ethers";
import { chainReads } from "../src/chain-reads";
import { lowGasWallets } from "../src/low-gas-wallets";
import { Reconciler } from "../src/reconciler";

const CHAIN_ID = 97;

describe("gas wallets below their partner's threshold", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let chain: TestChain;
  let stop: () => void;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
    chain = await startTestChain(CHAIN_ID);
    stop = reportLowGasWallets(() => lowGasWallets(db, [CHAIN_ID]), [CHAIN_ID]);
  });

  afterAll(async () => {
    stop?.();
    await chain?.stop();
    await db?.$disconnect();
    await database?.drop();
  });

  /** One round of the chain's reconciliation, after a block that holds the balances set. */
  async function reconcile(): Promise<void> {
    await chain.provider.send("evm_mine", []);
    await new Reconciler({
      db,
      environment: "testnet",
      chain: chainReads({ chainId: CHAIN_ID, confirmations: 1, provider: chain.provider }),
      intervalMs: 50,
      fullPassMs: 0,
      names: queueNames("low-gas-wallets-test"),
      logger: createLogger("low-gas-wallets-test", "error"),
    }).runOnce();
  }

  /** The gauge's series as a scrape shows them: has_work → gas wallets. */
  async function scraped(): Promise<Record<string, number>> {
    const samples = parsePrometheusText((await scrapeMetrics()).body).filter((s) => s.name === "sweep_gas_wallets_low" && s.labels.chain_id === String(CHAIN_ID));
    return Object.fromEntries(samples.map((s) => [s.labels.has_work!, s.value]));
  }

  async function partner(options: { balance: string; threshold?: string; enabled?: boolean }): Promise<TestPartner> {
    const created = await createTestPartner(db, "gas wallet health");
    await chain.setBalance(created.gasWallet, parseEther(options.balance));
    if (options.threshold) await db.lowBalanceAlert.create({ data: { partnerId: created.partnerId, chainId: CHAIN_ID, threshold: toDecimal(parseEther(options.threshold)) } });
    if (options.enabled === false) await db.partner.update({ where: { id: created.partnerId }, data: { enabled: false } });
    return created;
  }

  const hotWallet = (owner: TestPartner, status: "pending" | "active") =>
    db.hotWallet.create({ data: { partnerId: owner.partnerId, chainId: CHAIN_ID, address: Wallet.createRandom().address, delegate: Wallet.createRandom().address, status } });

  it("counts the low ones by whether work waits on them, and drops one once it is topped up", async () => {
    expect(await scraped()).toEqual({ true: 0, false: 0 });

    const idle = await partner({ balance: "0.2", threshold: "0.5" });
    const deploying = await partner({ balance: "0.1", threshold: "0.5" });
    await hotWallet(deploying, "pending");
    // Not counted: above its threshold, no threshold at all, a disabled partner.
    await partner({ balance: "2", threshold: "0.5" });
    await partner({ balance: "0" });
    await partner({ balance: "0.1", threshold: "0.5", enabled: false });
    await reconcile();
    expect(await scraped()).toEqual({ true: 1, false: 1 });

    // A sweep queued on the idle one's hot wallet: now work waits on it too.
    const active = await hotWallet(idle, "active");
    await db.sweep.create({ data: { partnerId: idle.partnerId, chainId: CHAIN_ID, hotWalletId: active.id, account: Wallet.createRandom().address, token: "USDT" } });
    expect(await scraped()).toEqual({ true: 2, false: 0 });

    // Topped up above its threshold: once reconciled, no longer low.
    await chain.setBalance(idle.gasWallet, parseEther("1"));
    await reconcile();
    expect(await scraped()).toEqual({ true: 1, false: 0 });
  });
});
