-- AlterTable
ALTER TABLE "events" ADD COLUMN     "seq" BIGSERIAL NOT NULL;

-- The events recorded before: numbered in the order they happened, so GET /v1/events lists them newest first
UPDATE "events" SET "seq" = ordered.n
  FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM "events") AS ordered
 WHERE "events".id = ordered.id;
SELECT setval(pg_get_serial_sequence('"events"', 'seq'), GREATEST(COALESCE(max("seq"), 0), 1), max("seq") IS NOT NULL) FROM "events";

-- CreateIndex
CREATE UNIQUE INDEX "events_seq_key" ON "events"("seq");

-- CreateIndex
CREATE INDEX "events_partner_id_seq_idx" ON "events"("partner_id", "seq");
