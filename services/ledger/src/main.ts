import { closeServer, healthUrls, runService, startHealthServer } from "@sweep/common";
import { connectChains, describeChain, environmentChainIds } from "@sweep/chains";
import { createDb, workBacklog } from "@sweep/db";
import { DEFAULT_MAX_ATTEMPTS } from "@sweep/lifecycle";
import { openMessaging, reportQueueDepths } from "@sweep/messaging";
import { reportLowGasWallets, reportWorkBacklog } from "@sweep/metrics";
import { codeCheck } from "./chain-code";
import { chainReads } from "./chain-reads";
import { loadLedgerConfig } from "./config";
import { startLedgerConsumer } from "./ledger-consumer";
import { lowGasWallets } from "./low-gas-wallets";
import { reconcileIntervalMs } from "./reconcile-rules";
import { Reconciler } from "./reconciler";
import { startWithdrawalSchedule } from "./withdrawal-schedule";

/** A silent node fails a reconciliation's reads after this: it only delays a round. */
const CHAIN_READ_TIMEOUT_MS = 10_000;

void runService("ledger", () => loadLedgerConfig(), async ({ config, logger }) => {
  // The ledger settles every chain of its environment: tariffs for the fees, nodes for the code checks and the reconciliation.
  const chains = connectChains(config.chains, { timeoutMs: CHAIN_READ_TIMEOUT_MS });
  logger.info("serving chains", { chains: chains.map(describeChain) });
  const db = createDb(config.DATABASE_URL);
  await db.$queryRaw`SELECT 1`;

  const chainIds = chains.map((chain) => chain.chainId);
  const messaging = await openMessaging({ url: config.RABBITMQ_URL, chainIds: environmentChainIds(config.SERVICE_ENV), prefix: config.AMQP_PREFIX, logger, db });

  const reconcilers = chains.map(
    (chain) =>
      new Reconciler({
        db,
        environment: config.SERVICE_ENV,
        chain: chainReads(chain),
        intervalMs: reconcileIntervalMs(config.RECONCILE_INTERVAL_MS, chain.blockTimeMs),
        fullPassMs: config.RECONCILE_FULL_PASS_MS,
        names: messaging.topology.names,
        outboxWritten: () => messaging.relay?.wake(),
        logger,
      }),
  );
  const consumer = await startLedgerConsumer(messaging, {
    db,
    names: messaging.topology.names,
    tariffs: new Map(chains.map((chain) => [chain.chainId, chain.tariff])),
    hasCode: codeCheck(chains),
    maxAttempts: DEFAULT_MAX_ATTEMPTS,
    now: () => new Date(),
    outboxWritten: () => messaging.relay?.wake(),
    transactionSettled: (chainId) => reconcilers[chainIds.indexOf(chainId)]?.wake(),
  }, logger);

  for (const reconciler of reconcilers) reconciler.start();

  const withdrawals = startWithdrawalSchedule({
    db,
    environment: config.SERVICE_ENV,
    chainIds: environmentChainIds(config.SERVICE_ENV),
    names: messaging.topology.names,
    intervalMs: config.WITHDRAW_INTERVAL_MS,
    outboxWritten: () => messaging.relay?.wake(),
    logger,
  });

  // Nothing consumes the unrouted queue: the ledger reports its depth so that an alert sees it.
  const unrouted = reportQueueDepths(messaging.connection, [messaging.topology.names.unrouted()]);

  // What waits in the database, read at each scrape for every chain: each replica shows the same values (take the max).
  const stopDatabaseGauges = [reportWorkBacklog(() => workBacklog(db, chainIds), chainIds), reportLowGasWallets(() => lowGasWallets(db, chainIds), chainIds)];

  const health = await startHealthServer(config.HEALTH_PORT, messaging.isConnected, config.HOST);
  logger.info("listening", healthUrls(health));

  return [
    { name: "chain providers", close: async () => chains.forEach((chain) => chain.provider.destroy()) },
    { name: "database", close: () => db.$disconnect() },
    { name: "database gauges", close: async () => stopDatabaseGauges.forEach((stop) => stop()) },
    ...messaging.closers,
    { name: "ledger consumer", close: () => consumer.stop() },
    { name: "reconcilers", close: () => Promise.all(reconcilers.map((r) => r.stop())) },
    { name: "withdrawal schedule", close: () => withdrawals.stop() },
    { name: "unrouted depth", close: () => unrouted.stop() },
    { name: "health", close: () => closeServer(health) },
  ];
});
