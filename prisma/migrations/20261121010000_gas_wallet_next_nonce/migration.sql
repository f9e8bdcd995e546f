-- AlterTable
ALTER TABLE "gas_wallet_chain_states" ADD COLUMN     "next_nonce" BIGINT;

