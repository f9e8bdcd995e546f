-- The request log: one row per partner request, kept 30 days, for GET /v1/requests/{request_id}
-- CreateTable
CREATE TABLE "request_log" (
    "seq" BIGSERIAL NOT NULL,
    "partner_id" UUID NOT NULL,
    "request_id" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "error_code" TEXT,
    "duration_ms" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "request_log_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE INDEX "request_log_partner_id_request_id_idx" ON "request_log"("partner_id", "request_id");

-- CreateIndex
CREATE INDEX "request_log_partner_id_seq_idx" ON "request_log"("partner_id", "seq");

-- CreateIndex
CREATE INDEX "request_log_created_at_idx" ON "request_log"("created_at");

-- AddForeignKey
ALTER TABLE "request_log" ADD CONSTRAINT "request_log_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

