-- CreateTable
CREATE TABLE "partner_fee_ceilings" (
    "partner_id" UUID NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "max_fee_per_gas" DECIMAL(78,0) NOT NULL,

    CONSTRAINT "partner_fee_ceilings_pkey" PRIMARY KEY ("partner_id","chain_id")
);

-- AddForeignKey
ALTER TABLE "partner_fee_ceilings" ADD CONSTRAINT "partner_fee_ceilings_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

