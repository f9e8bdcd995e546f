-- The delegation firewall (issue 26): a deposit address marked compromised with the transaction that
-- did it, the chain-and-address lookups of a block's addresses, and each chain's next block to read.
-- AlterEnum
ALTER TYPE "DelegationState" ADD VALUE 'compromised';

-- AlterTable
ALTER TABLE "deposit_addresses" ADD COLUMN     "compromised_block" BIGINT,
ADD COLUMN     "compromised_tx_hash" TEXT;

-- CreateTable
CREATE TABLE "chain_watch_cursors" (
    "chain_id" INTEGER NOT NULL,
    "next_block" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chain_watch_cursors_pkey" PRIMARY KEY ("chain_id")
);

-- CreateIndex
CREATE INDEX "deposit_addresses_chain_id_address_idx" ON "deposit_addresses"("chain_id", "address");

