-- What an OP-stack chain charged a confirmed transaction for its L1 data beyond gas used × price:
-- 0 on other chains, null before it is confirmed and on rows confirmed before this column.
-- AlterTable
ALTER TABLE "chain_transactions" ADD COLUMN     "l1_fee" DECIMAL(78,0);
