import { closeServer, healthUrls, runService, startHealthServer } from "@sweep/common";
import { Pkcs11Token, resolveKeks } from "@sweep/key-custody";
import { connectChains, describeChain, environmentChainIds, feeOnTransferTokens } from "@sweep/chains";
import { createDb } from "@sweep/db";
import { openMessaging } from "@sweep/messaging";
import { chainSenderLeader } from "@sweep/metrics";
import { BatchSender } from "./send/batch-sender";
import { startChainWork } from "./chain-work";
import { loadChainSenderConfig } from "./config";
import { DeployRequests } from "./send/deploy-requests";
import { GasWalletSigners } from "./gas-wallet-signers";
import { LeaderLease } from "./lease/leader-lease";
import { blocksAsMs, headPollMs } from "./watch/watch-timing";
import { ChainWatcher } from "./watch/watcher";

void runService("chain-sender", () => loadChainSenderConfig(), async ({ config, logger }) => {
  const chains = connectChains(config.chains, { timeoutMs: config.RPC_TIMEOUT_MS });
  logger.info("serving chains", { chains: chains.map(describeChain) });
  for (const { chainId, treasury } of chains) {
    if (!treasury) logger.warn(`TREASURY_ADDRESS_${chainId} is not set: withdrawals of fees on chain ${chainId} will fail (internal)`);
  }
  // A token that cannot be opened (wrong PIN, no such token) stops the start: nothing could be signed.
  const token = config.pkcs11 && Pkcs11Token.open(config.pkcs11);
  logger.info("gas wallet keys", token ? { custody: "pkcs11", library: config.pkcs11?.library, token: token.label } : { custody: "sealed" });
  const signers = new GasWalletSigners(resolveKeks(config, (message) => logger.warn(message)).all, token || undefined);
  const db = createDb(config.DATABASE_URL);
  await db.$queryRaw`SELECT 1`;

  const messaging = await openMessaging({ url: config.RABBITMQ_URL, chainIds: environmentChainIds(config.SERVICE_ENV), prefix: config.AMQP_PREFIX, logger, db });
  const names = messaging.topology.names;

  const perChain = chains.map((chain) => {
    const { client } = chain;
    const outboxWritten = () => messaging.relay?.wake();
    // The watcher is made below: the sender wakes it once a transaction went out.
    const transactionSent = () => watcher.wake();
    const sender = new BatchSender({ db, names, client, signers, gasLimitMarginBps: config.GAS_LIMIT_MARGIN_BPS, treasury: chain.treasury, factory: chain.factory, feeOnTransferTokens: feeOnTransferTokens(chain), feeCeiling: chain.feeCeiling, txFeeCap: chain.txFeeCap, logger, outboxWritten, transactionSent });
    const deploys = new DeployRequests({ db, client, sender, logger });
    const watcher = new ChainWatcher({
      db,
      names,
      client,
      signers,
      logger,
      feeCeiling: chain.feeCeiling,
      txFeeCap: chain.txFeeCap,
      // In the chain's terms: a round a block, the head read once the next block is due, thresholds in its blocks.
      intervalMs: chain.blockTimeMs,
      headPollMs: headPollMs(chain.blockTimeMs),
      replaceAfterMs: blocksAsMs(chain.replaceAfterBlocks, chain.blockTimeMs),
      // Arbitrum's sequencer has no public mempool: a higher fee buys no earlier place (as OpenZeppelin's relayer does there).
      bumpsFees: chain.feeModel !== "arbitrum",
      gapGraceMs: config.NONCE_GAP_GRACE_MS,
      dropAfterMs: blocksAsMs(chain.dropAfterBlocks, chain.blockTimeMs),
      outboxWritten,
    });
    return { chainId: chain.chainId, sender, deploys, watcher, provider: chain.provider };
  });

  // A chain's watcher and sender consumer run only in the holder of its lease; other processes wait on standby.
  const leases = perChain.map(
    (chain) =>
      new LeaderLease({
        chainId: chain.chainId,
        databaseUrl: config.DATABASE_URL,
        pollMs: config.LEADER_POLL_MS,
        logger,
        serve: () => startChainWork(messaging, chain, logger),
        // Fencing: exit at once, as in a crash (the next leader resumes what was stored); the supervisor restarts this one as a standby.
        lost: () => process.exit(1),
        leading: (leader) => chainSenderLeader.set({ chain_id: String(chain.chainId) }, leader ? 1 : 0),
      }),
  );
  leases.forEach((lease) => lease.start());

  const health = await startHealthServer(config.HEALTH_PORT, messaging.isConnected, config.HOST);
  logger.info("listening", healthUrls(health));

  return [
    { name: "database", close: () => db.$disconnect() },
    { name: "chain providers", close: () => perChain.forEach((c) => c.provider.destroy()) },
    ...messaging.closers,
    { name: "leader leases", close: () => Promise.all(leases.map((lease) => lease.stop())) },
    { name: "health", close: () => closeServer(health) },
    ...(token ? [{ name: "pkcs11 token", close: () => token.close() }] : []),
  ];
});
