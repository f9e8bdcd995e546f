import { closeServer, healthUrls, runService, startHealthServer } from "@sweep/common";
import { connectChains, describeChain, environmentChainIds } from "@sweep/chains";
import { createDb } from "@sweep/db";
import { openMessaging } from "@sweep/messaging";
import { loadBatcherConfig } from "./config";
import { startBatcherConsumers } from "./consumers";
import { startDuePoller } from "./due-poller";
import { startDelegationFirewall } from "./firewall/delegation-firewall";
import { startPolicySweeps } from "./policies/policy-sweeps";
import { GatherWindow } from "./gather-window";
import { roundByKey } from "./round-keys";
import { createWorkRound } from "./work-round";

/** A node that hangs fails the checks' reads after this, instead of holding the hot wallet's round. */
const CHAIN_READ_TIMEOUT_MS = 10_000;
/** A firewall round reads this many blocks at most before it lets the next round start (catching up after a stop). */
const FIREWALL_BLOCKS_PER_ROUND = 100;
/** Addresses a policy round judges at most (their balances read in one snapshot, as a claim reads its sweeps'). */
const POLICY_ADDRESSES_PER_ROUND = 500;

void runService("batcher", () => loadBatcherConfig(), async ({ config, logger }) => {
  const chains = connectChains(config.chains, { timeoutMs: CHAIN_READ_TIMEOUT_MS });
  logger.info("serving chains", { chains: chains.map(describeChain) });
  const chainIds = chains.map((c) => c.chainId);
  const db = createDb(config.DATABASE_URL);
  await db.$queryRaw`SELECT 1`;

  const messaging = await openMessaging({ url: config.RABBITMQ_URL, chainIds: environmentChainIds(config.SERVICE_ENV), prefix: config.AMQP_PREFIX, logger, db });

  const providers = new Map(chains.map((c) => [c.chainId, c.provider]));
  const feeCeilings = new Map(chains.map((c) => [c.chainId, c.feeCeiling]));
  const txFeeCaps = new Map(chains.map((c) => [c.chainId, c.txFeeCap]));
  const reads = { batchSize: config.CHAIN_READ_BATCH_SIZE, concurrency: config.CHAIN_READ_CONCURRENCY };
  const wrote = () => messaging.relay?.wake();
  const sweepRound = createWorkRound("sweep", {
    db,
    names: messaging.topology.names,
    providers,
    feeCeilings,
    txFeeCaps,
    tariffs: new Map(chains.map((c) => [c.chainId, c.tariff])),
    settings: { gasMarginBps: config.BATCH_GAS_MARGIN_BPS, maxSweeps: config.BATCH_MAX_SWEEPS, maxSent: config.BATCH_MAX_SENT, readAheadMs: config.BATCH_READ_AHEAD_MS, reads },
    logger,
    wrote,
  });
  const revocationRound = createWorkRound("revocation", {
    db,
    names: messaging.topology.names,
    providers,
    feeCeilings,
    txFeeCaps,
    settings: { gasMarginBps: config.BATCH_GAS_MARGIN_BPS, maxRevocations: config.BATCH_MAX_REVOCATIONS, reads },
    logger,
    wrote,
  });
  const windows = new GatherWindow({ quietMs: config.BATCH_WINDOW_MS, maxMs: config.BATCH_WINDOW_MAX_MS }, roundByKey({ sweeps: sweepRound, revocations: revocationRound }));
  const request = (key: string, options?: { immediate?: boolean }) => windows.request(key, options);

  const consumers = await startBatcherConsumers({ messaging, db, chainIds, request, prefetch: config.BATCHER_PREFETCH, logger });
  const pollers = chainIds.map((chainId) => startDuePoller({ db, chainId, intervalMs: config.POLL_INTERVAL_MS, request, logger }));
  const policies = chains.map((c) =>
    startPolicySweeps({ db, chainId: c.chainId, provider: c.provider, reads, blockTimeMs: c.blockTimeMs, maxAddresses: POLICY_ADDRESSES_PER_ROUND, logger, request: (hotWalletId) => request(hotWalletId) }),
  );
  const firewalls = chains.map((c, i) =>
    startDelegationFirewall({
      db,
      names: messaging.topology.names,
      chainId: c.chainId,
      provider: c.provider,
      tokens: c.tokens,
      nativeTicker: c.nativeTicker,
      finalBlock: (head) => c.client.finalBlock(head),
      blockTimeMs: c.blockTimeMs,
      maxBlocksPerRound: FIREWALL_BLOCKS_PER_ROUND,
      logger,
      wrote,
      // The chain's policies judge newly confirmed deposits at once rather than after their rest.
      depositsConfirmed: () => policies[i]!.wake(),
    }),
  );

  const health = await startHealthServer(config.HEALTH_PORT, messaging.isConnected, config.HOST);
  logger.info("listening", healthUrls(health));

  // Closed in reverse: health, pollers and consumers stop asking, then the rounds under way finish
  // (a claim is one transaction either way), then the relay sends what they wrote.
  return [
    { name: "database", close: () => db.$disconnect() },
    ...messaging.closers,
    { name: "providers", close: () => chains.forEach((c) => c.provider.destroy()) },
    { name: "batch rounds", close: () => windows.stop() },
    { name: "consumers", close: () => Promise.all(consumers.map((c) => c.stop())) },
    { name: "pollers", close: () => Promise.all(pollers.map((p) => p.stop())) },
    { name: "delegation firewalls", close: () => Promise.all(firewalls.map((f) => f.stop())) },
    { name: "sweep policies", close: () => Promise.all(policies.map((p) => p.stop())) },
    { name: "health", close: () => closeServer(health) },
  ];
});
