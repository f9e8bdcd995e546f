-- A confirmed transaction's block hash, re-checked for a while after settlement: a reorg deeper than
-- the confirmations is detected, and what became of the transaction recorded.
-- CreateEnum
CREATE TYPE "TxReorg" AS ENUM ('reorged', 'restored', 'lost');

-- AlterTable
ALTER TABLE "chain_transactions" ADD COLUMN     "block_hash" TEXT,
ADD COLUMN     "reorg" "TxReorg",
ADD COLUMN     "reorged_at" TIMESTAMPTZ(3);

-- IF NOT EXISTS: on large tables an operator may build them first with CREATE INDEX CONCURRENTLY (deploy/README.md).
-- CreateIndex
CREATE INDEX IF NOT EXISTS "chain_transactions_chain_id_block_number_idx" ON "chain_transactions"("chain_id", "block_number");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "chain_transactions_chain_id_reorg_idx" ON "chain_transactions"("chain_id", "reorg");
