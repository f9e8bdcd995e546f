-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Environment" AS ENUM ('testnet', 'mainnet');

-- CreateEnum
CREATE TYPE "HotWalletStatus" AS ENUM ('pending', 'active', 'failed');

-- CreateEnum
CREATE TYPE "WorkStatus" AS ENUM ('queued', 'processing', 'swept', 'revoked', 'failed', 'rejected');

-- CreateEnum
CREATE TYPE "SweepKind" AS ENUM ('repeat', 'first', 'first_new');

-- CreateEnum
CREATE TYPE "BatchPurpose" AS ENUM ('sweep', 'revocation', 'deploy_delegate', 'gap_fill', 'withdrawal');

-- CreateEnum
CREATE TYPE "BatchStatus" AS ENUM ('open', 'sent', 'confirmed', 'failed');

-- CreateEnum
CREATE TYPE "TxStatus" AS ENUM ('signed', 'broadcast', 'confirmed', 'replaced', 'dropped');

-- CreateEnum
CREATE TYPE "LedgerKind" AS ENUM ('gas', 'fee', 'fee_charge', 'fee_credit', 'withdrawal', 'topup');

-- CreateEnum
CREATE TYPE "DeliveryStatus" AS ENUM ('pending', 'delivered', 'failed');

-- CreateTable
CREATE TABLE "partners" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "keep_one_unit" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "partners_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gas_wallets" (
    "id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "address" TEXT NOT NULL,
    "encrypted_key" TEXT NOT NULL,
    "kek_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gas_wallets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gas_wallet_chain_states" (
    "gas_wallet_id" UUID NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "reconciled_block" BIGINT,
    "reconciled_balance" DECIMAL(78,0),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "gas_wallet_chain_states_pkey" PRIMARY KEY ("gas_wallet_id","chain_id")
);

-- CreateTable
CREATE TABLE "agreements" (
    "partner_id" UUID NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "rate_bps" INTEGER,
    "native_markup_bps" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "agreements_pkey" PRIMARY KEY ("partner_id","chain_id")
);

-- CreateTable
CREATE TABLE "hot_wallets" (
    "id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "delegate" TEXT NOT NULL,
    "status" "HotWalletStatus" NOT NULL DEFAULT 'pending',
    "error" TEXT,
    "tx_hash" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "hot_wallets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sweeps" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "partner_id" UUID NOT NULL,
    "external_id" TEXT,
    "chain_id" INTEGER NOT NULL,
    "hot_wallet_id" UUID NOT NULL,
    "account" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "token_address" TEXT,
    "amount" DECIMAL(78,0),
    "keep_one_unit" BOOLEAN NOT NULL DEFAULT false,
    "authorization" JSONB,
    "status" "WorkStatus" NOT NULL DEFAULT 'queued',
    "reason" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "batch_id" UUID,
    "swept_amount" DECIMAL(78,0),
    "tx_hash" TEXT,
    "kind" "SweepKind",
    "gas" BIGINT,
    "gas_cost" DECIMAL(78,0),
    "fee" DECIMAL(78,0),
    "classic_gas" BIGINT,
    "rate_bps" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sweeps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "revocations" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "partner_id" UUID NOT NULL,
    "external_id" TEXT,
    "chain_id" INTEGER NOT NULL,
    "account" TEXT NOT NULL,
    "authorization" JSONB NOT NULL,
    "status" "WorkStatus" NOT NULL DEFAULT 'queued',
    "reason" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "batch_id" UUID,
    "tx_hash" TEXT,
    "gas" BIGINT,
    "gas_cost" DECIMAL(78,0),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "revocations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "batches" (
    "id" UUID NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "gas_wallet_id" UUID NOT NULL,
    "hot_wallet_id" UUID,
    "purpose" "BatchPurpose" NOT NULL,
    "status" "BatchStatus" NOT NULL DEFAULT 'open',
    "reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "batches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "batch_items" (
    "id" UUID NOT NULL,
    "batch_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "sweep_id" UUID,
    "revocation_id" UUID,
    "with_authorization" BOOLEAN NOT NULL DEFAULT false,
    "kind" "SweepKind",
    "outcome" TEXT,
    "amount" DECIMAL(78,0),
    "gas_used" BIGINT,

    CONSTRAINT "batch_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chain_transactions" (
    "id" UUID NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "gas_wallet_id" UUID NOT NULL,
    "batch_id" UUID,
    "nonce" BIGINT NOT NULL,
    "replacement" INTEGER NOT NULL DEFAULT 0,
    "hash" TEXT NOT NULL,
    "raw_tx" TEXT NOT NULL,
    "status" "TxStatus" NOT NULL DEFAULT 'signed',
    "gas_limit" BIGINT NOT NULL,
    "max_fee_per_gas" DECIMAL(78,0) NOT NULL,
    "max_priority_fee_per_gas" DECIMAL(78,0) NOT NULL,
    "gas_used" BIGINT,
    "effective_gas_price" DECIMAL(78,0),
    "block_number" BIGINT,
    "succeeded" BOOLEAN,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "broadcast_at" TIMESTAMPTZ(3),
    "mined_at" TIMESTAMPTZ(3),

    CONSTRAINT "chain_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" BIGSERIAL NOT NULL,
    "partner_id" UUID NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "kind" "LedgerKind" NOT NULL,
    "amount" DECIMAL(78,0) NOT NULL,
    "tx_hash" TEXT,
    "sweep_id" UUID,
    "note" TEXT,
    "dedupe_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhooks" (
    "partner_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("partner_id")
);

-- CreateTable
CREATE TABLE "low_balance_alerts" (
    "partner_id" UUID NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "threshold" DECIMAL(78,0) NOT NULL,
    "low" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "low_balance_alerts_pkey" PRIMARY KEY ("partner_id","chain_id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "subject_id" UUID,
    "payload" JSONB,
    "dedupe_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "event_id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "partner_id" UUID NOT NULL,
    "status" "DeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("event_id")
);

-- CreateTable
CREATE TABLE "outbox" (
    "id" BIGSERIAL NOT NULL,
    "message_id" UUID NOT NULL,
    "exchange" TEXT NOT NULL,
    "routing_key" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_partner_id_idx" ON "api_keys"("partner_id");

-- CreateIndex
CREATE UNIQUE INDEX "gas_wallets_partner_id_key" ON "gas_wallets"("partner_id");

-- CreateIndex
CREATE UNIQUE INDEX "gas_wallets_address_key" ON "gas_wallets"("address");

-- CreateIndex
CREATE INDEX "hot_wallets_chain_id_delegate_idx" ON "hot_wallets"("chain_id", "delegate");

-- CreateIndex
CREATE UNIQUE INDEX "hot_wallets_partner_id_chain_id_address_key" ON "hot_wallets"("partner_id", "chain_id", "address");

-- CreateIndex
CREATE UNIQUE INDEX "sweeps_seq_key" ON "sweeps"("seq");

-- CreateIndex
CREATE INDEX "sweeps_partner_id_seq_idx" ON "sweeps"("partner_id", "seq");

-- CreateIndex
CREATE INDEX "sweeps_hot_wallet_id_status_idx" ON "sweeps"("hot_wallet_id", "status");

-- CreateIndex
CREATE INDEX "sweeps_chain_id_account_idx" ON "sweeps"("chain_id", "account");

-- CreateIndex
CREATE UNIQUE INDEX "sweeps_partner_id_external_id_key" ON "sweeps"("partner_id", "external_id");

-- CreateIndex
CREATE UNIQUE INDEX "revocations_seq_key" ON "revocations"("seq");

-- CreateIndex
CREATE INDEX "revocations_partner_id_seq_idx" ON "revocations"("partner_id", "seq");

-- CreateIndex
CREATE INDEX "revocations_chain_id_account_idx" ON "revocations"("chain_id", "account");

-- CreateIndex
CREATE UNIQUE INDEX "revocations_partner_id_external_id_key" ON "revocations"("partner_id", "external_id");

-- CreateIndex
CREATE INDEX "batches_chain_id_status_idx" ON "batches"("chain_id", "status");

-- CreateIndex
CREATE INDEX "batch_items_sweep_id_idx" ON "batch_items"("sweep_id");

-- CreateIndex
CREATE INDEX "batch_items_revocation_id_idx" ON "batch_items"("revocation_id");

-- CreateIndex
CREATE UNIQUE INDEX "batch_items_batch_id_position_key" ON "batch_items"("batch_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "chain_transactions_hash_key" ON "chain_transactions"("hash");

-- CreateIndex
CREATE INDEX "chain_transactions_chain_id_status_idx" ON "chain_transactions"("chain_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "chain_transactions_chain_id_gas_wallet_id_nonce_replacement_key" ON "chain_transactions"("chain_id", "gas_wallet_id", "nonce", "replacement");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_dedupe_key_key" ON "ledger_entries"("dedupe_key");

-- CreateIndex
CREATE INDEX "ledger_entries_partner_id_chain_id_kind_idx" ON "ledger_entries"("partner_id", "chain_id", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "events_dedupe_key_key" ON "events"("dedupe_key");

-- CreateIndex
CREATE INDEX "events_partner_id_created_at_idx" ON "events"("partner_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_seq_key" ON "webhook_deliveries"("seq");

-- CreateIndex
CREATE INDEX "webhook_deliveries_partner_id_seq_idx" ON "webhook_deliveries"("partner_id", "seq");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_message_id_key" ON "outbox"("message_id");

-- CreateIndex
CREATE INDEX "outbox_published_at_id_idx" ON "outbox"("published_at", "id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gas_wallets" ADD CONSTRAINT "gas_wallets_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gas_wallet_chain_states" ADD CONSTRAINT "gas_wallet_chain_states_gas_wallet_id_fkey" FOREIGN KEY ("gas_wallet_id") REFERENCES "gas_wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agreements" ADD CONSTRAINT "agreements_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hot_wallets" ADD CONSTRAINT "hot_wallets_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sweeps" ADD CONSTRAINT "sweeps_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sweeps" ADD CONSTRAINT "sweeps_hot_wallet_id_fkey" FOREIGN KEY ("hot_wallet_id") REFERENCES "hot_wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sweeps" ADD CONSTRAINT "sweeps_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "batches"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "revocations" ADD CONSTRAINT "revocations_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "revocations" ADD CONSTRAINT "revocations_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "batches"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "batches" ADD CONSTRAINT "batches_hot_wallet_id_fkey" FOREIGN KEY ("hot_wallet_id") REFERENCES "hot_wallets"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "batch_items" ADD CONSTRAINT "batch_items_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "batches"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "batch_items" ADD CONSTRAINT "batch_items_sweep_id_fkey" FOREIGN KEY ("sweep_id") REFERENCES "sweeps"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "batch_items" ADD CONSTRAINT "batch_items_revocation_id_fkey" FOREIGN KEY ("revocation_id") REFERENCES "revocations"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chain_transactions" ADD CONSTRAINT "chain_transactions_gas_wallet_id_fkey" FOREIGN KEY ("gas_wallet_id") REFERENCES "gas_wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chain_transactions" ADD CONSTRAINT "chain_transactions_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "batches"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "low_balance_alerts" ADD CONSTRAINT "low_balance_alerts_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

