import { presentChainBalance } from "@sweep/api-contract";
import { feeReserve, type Db } from "@sweep/db";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import type { GatewayChain } from "../chains";
import { requestLog, type RequestLog } from "../http/request-log";
import type { BalanceCache } from "./balance-cache";
import { readNodeBalance, type BalanceNode } from "./node-balance";

export interface BalanceRoutesDeps {
  db: Db;
  chains: ReadonlyMap<number, GatewayChain>;
  /** one per chain */
  nodes: ReadonlyMap<number, BalanceNode>;
  rpcTimeoutMs: number;
  cache: BalanceCache;
}

export function balanceRoutes(deps: BalanceRoutesDeps): Router {
  const router = Router();

  /** The node's answer, or null (chain_unavailable) when it has none in time. */
  async function balanceOn(chainId: number, address: string, log: RequestLog): Promise<bigint | null> {
    const node = deps.nodes.get(chainId);
    if (!node) throw new Error(`no node for chain ${chainId}`);
    try {
      return await deps.cache.read(chainId, address, () => readNodeBalance(node, address, deps.rpcTimeoutMs));
    } catch (err) {
      log.logger.warn("balance not read from the node", { chainId, err: err instanceof Error ? err.message : String(err) });
      return null;
    }
  }

  // Every chain at once, node and ledger alike: a slow node costs its timeout once, not per chain.
  router.get("/v1/balance", async (_req, res) => {
    const { partnerId, gasWallet } = partnerOf(res);
    if (!gasWallet) throw new Error(`partner ${partnerId} has no gas wallet`);
    const chains = await Promise.all(
      [...deps.chains.values()].map(async (chain) => {
        const [fees, balance] = await Promise.all([feeReserve(deps.db, partnerId, chain.chainId), balanceOn(chain.chainId, gasWallet, requestLog(res))]);
        return presentChainBalance(chain, fees, balance);
      }),
    );
    res.json({ gas_wallet: gasWallet, chains });
  });

  return router;
}
