-- The least L1 data fee of a confirmed transaction's block on an OP-stack chain (Fjord's floor of
-- 100 bytes): what a classic transfer paid for its L1 data there, counted in the classic benchmark.
-- AlterTable
ALTER TABLE "chain_transactions" ADD COLUMN     "minimum_l1_fee" DECIMAL(78,0);
