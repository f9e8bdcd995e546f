-- CreateEnum
CREATE TYPE "DepositStatus" AS ENUM ('pending', 'confirmed');

-- CreateTable
CREATE TABLE "deposits" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "partner_id" UUID NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "token_address" TEXT,
    "amount" DECIMAL(78,0) NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "block_hash" TEXT NOT NULL,
    "status" "DepositStatus" NOT NULL DEFAULT 'pending',
    "detected_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "confirmed_at" TIMESTAMPTZ(3),

    CONSTRAINT "deposits_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "deposits_seq_key" ON "deposits"("seq");

-- CreateIndex
CREATE INDEX "deposits_partner_id_seq_idx" ON "deposits"("partner_id", "seq");

-- CreateIndex
CREATE INDEX "deposits_partner_id_chain_id_address_seq_idx" ON "deposits"("partner_id", "chain_id", "address", "seq");

-- CreateIndex
CREATE INDEX "deposits_chain_id_status_block_number_idx" ON "deposits"("chain_id", "status", "block_number");

-- CreateIndex
CREATE UNIQUE INDEX "deposits_partner_id_chain_id_tx_hash_log_index_key" ON "deposits"("partner_id", "chain_id", "tx_hash", "log_index");

-- AddForeignKey
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_partner_id_chain_id_address_fkey" FOREIGN KEY ("partner_id", "chain_id", "address") REFERENCES "deposit_addresses"("partner_id", "chain_id", "address") ON DELETE RESTRICT ON UPDATE CASCADE;

