-- The delegation firewall across reorgs: the hashes of the blocks it read last, and each compromised
-- address's delegation before the mark, put back when a reorg removes the block that caused it.
-- AlterTable
ALTER TABLE "deposit_addresses" ADD COLUMN     "compromised_from" "DelegationState";

-- CreateTable
CREATE TABLE "watched_blocks" (
    "chain_id" INTEGER NOT NULL,
    "number" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "watched_blocks_pkey" PRIMARY KEY ("chain_id","number")
);

