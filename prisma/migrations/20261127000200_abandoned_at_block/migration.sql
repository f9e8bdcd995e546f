-- The head when a transaction's nonce was given up: its receipt is looked for a while after, and a
-- transaction found mined after all is restored and booked.
-- AlterTable
ALTER TABLE "chain_transactions" ADD COLUMN     "abandoned_at_block" BIGINT;
