import type { Db } from "@sweep/db";
import { states, unfinishedStates } from "@sweep/lifecycle";

/** Gas wallets below their partner's threshold on one chain, with or without work waiting on them. */
export interface LowGasWalletCount {
  chainId: number;
  hasWork: boolean;
  wallets: number;
}

/**
 * The gas wallets of enabled partners whose reconciled balance on a chain (the reconciliation's
 * last, at its final block) is below the low-balance threshold their partner set there, counted by
 * whether work waits on them: sweeps or revocations not final, or a delegate being deployed. Those
 * with work are about to fail it with insufficient_gas_balance unless the partner tops up. A
 * partner without a threshold is not counted; a disabled partner's work waits anyway.
 *
 * Cost: the alerts, gas wallets and their states are one row per partner and chain; the work
 * checks run for the low wallets only (sweeps through `sweeps (hot_wallet_id, status)`, revocations
 * through the partner's rows).
 */
export function lowGasWallets(db: Db, chainIds: readonly number[]): Promise<LowGasWalletCount[]> {
  return db.$queryRaw<LowGasWalletCount[]>`
    SELECT a.chain_id AS "chainId",
           (EXISTS (SELECT 1 FROM hot_wallets h JOIN sweeps s ON s.hot_wallet_id = h.id
                     WHERE h.partner_id = a.partner_id AND h.chain_id = a.chain_id AND s.status = ANY(${unfinishedStates.work}::"WorkStatus"[]))
            OR EXISTS (SELECT 1 FROM revocations r
                        WHERE r.partner_id = a.partner_id AND r.chain_id = a.chain_id AND r.status = ANY(${unfinishedStates.work}::"WorkStatus"[]))
            OR EXISTS (SELECT 1 FROM hot_wallets h
                        WHERE h.partner_id = a.partner_id AND h.chain_id = a.chain_id AND h.status = ${states.hotWallet.pending}::"HotWalletStatus")) AS "hasWork",
           count(*)::int AS wallets
      FROM low_balance_alerts a
      JOIN partners p ON p.id = a.partner_id AND p.enabled
      JOIN gas_wallets g ON g.partner_id = a.partner_id
      JOIN gas_wallet_chain_states st ON st.gas_wallet_id = g.id AND st.chain_id = a.chain_id
     WHERE st.reconciled_balance < a.threshold AND a.chain_id = ANY(${[...chainIds]}::int[])
     GROUP BY 1, 2`;
}
