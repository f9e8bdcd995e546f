-- A withdrawal that drains its gas wallet: everything but the fees due and its own gas goes to this
-- address instead of the fees going to the treasury (a retired partner's gas wallet, after a key rotation).
ALTER TABLE "batches" ADD COLUMN "drain_to" TEXT;

ALTER TABLE "batches" ADD CONSTRAINT "batches_drain_to_check" CHECK ("drain_to" IS NULL OR "purpose" = 'withdrawal');
