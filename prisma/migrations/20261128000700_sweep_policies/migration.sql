-- CreateEnum
CREATE TYPE "SweepCreator" AS ENUM ('partner', 'policy');

-- CreateEnum
CREATE TYPE "PolicySchedule" AS ENUM ('asap', 'hourly', 'daily');

-- AlterTable
ALTER TABLE "sweeps" ADD COLUMN     "created_by" "SweepCreator" NOT NULL DEFAULT 'partner';

-- AlterTable
ALTER TABLE "deposits" ADD COLUMN     "policy_checked_at" TIMESTAMPTZ(3),
ADD COLUMN     "sweep_id" UUID;

-- CreateTable
CREATE TABLE "sweep_policies" (
    "id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "token" TEXT NOT NULL,
    "token_address" TEXT,
    "hot_wallet_id" UUID NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "min_balance" DECIMAL(78,0) NOT NULL,
    "max_fee_per_gas" DECIMAL(78,0),
    "max_cost_bps" INTEGER,
    "token_value_wei" DECIMAL(78,0),
    "token_decimals" INTEGER,
    "schedule" "PolicySchedule" NOT NULL,
    "schedule_at" INTEGER NOT NULL DEFAULT 0,
    "next_run_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sweep_policies_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sweep_policies_chain_id_enabled_idx" ON "sweep_policies"("chain_id", "enabled");

-- CreateIndex
CREATE UNIQUE INDEX "sweep_policies_partner_id_chain_id_token_key" ON "sweep_policies"("partner_id", "chain_id", "token");

-- CreateIndex
CREATE INDEX "deposits_chain_id_status_sweep_id_idx" ON "deposits"("chain_id", "status", "sweep_id");

-- AddForeignKey
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_sweep_id_fkey" FOREIGN KEY ("sweep_id") REFERENCES "sweeps"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sweep_policies" ADD CONSTRAINT "sweep_policies_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sweep_policies" ADD CONSTRAINT "sweep_policies_hot_wallet_id_fkey" FOREIGN KEY ("hot_wallet_id") REFERENCES "hot_wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

