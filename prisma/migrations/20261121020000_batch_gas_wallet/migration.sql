-- AddForeignKey
ALTER TABLE "batches" ADD CONSTRAINT "batches_gas_wallet_id_fkey" FOREIGN KEY ("gas_wallet_id") REFERENCES "gas_wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

