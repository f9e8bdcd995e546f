-- IF NOT EXISTS: on large tables an operator may build them first with CREATE INDEX CONCURRENTLY (deploy/README.md).
-- CreateIndex
CREATE INDEX IF NOT EXISTS "revocations_chain_id_status_idx" ON "revocations"("chain_id", "status");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "batches_hot_wallet_id_status_idx" ON "batches"("hot_wallet_id", "status");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "batches_gas_wallet_id_chain_id_purpose_created_at_idx" ON "batches"("gas_wallet_id", "chain_id", "purpose", "created_at");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "ledger_entries_partner_id_id_idx" ON "ledger_entries"("partner_id", "id");

