-- The deposit-address inventory (issue 26): every address of a sweep or revocation that came with
-- an authorization, and those a partner registers in bulk, with what the service last knew of its
-- delegation.
-- CreateEnum
CREATE TYPE "DelegationState" AS ENUM ('unknown', 'authorized', 'delegated', 'revoked');

-- CreateTable
CREATE TABLE "deposit_addresses" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "partner_id" UUID NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "delegation" "DelegationState" NOT NULL,
    "delegate" TEXT,
    "authorization" JSONB,
    "last_activity_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deposit_addresses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "deposit_addresses_seq_key" ON "deposit_addresses"("seq");

-- CreateIndex
CREATE INDEX "deposit_addresses_partner_id_seq_idx" ON "deposit_addresses"("partner_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "deposit_addresses_partner_id_chain_id_address_key" ON "deposit_addresses"("partner_id", "chain_id", "address");

-- AddForeignKey
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- The addresses of the sweeps and revocations before it: the latest authorization of a delegate a
-- sweep carried, delegated once a sweep carrying one was swept and revoked once a revocation after
-- it was revoked (whichever settled last), the latest request as the last activity.
WITH work AS (
    SELECT partner_id, chain_id, account, created_at, updated_at, "authorization",
           CASE WHEN status = 'swept' AND kind IN ('first', 'first_new') THEN 'delegated' END AS settled_as
      FROM sweeps
    UNION ALL
    SELECT partner_id, chain_id, account, created_at, updated_at, NULL,
           CASE WHEN status = 'revoked' THEN 'revoked' END
      FROM revocations
), latest_authorization AS (
    SELECT DISTINCT ON (partner_id, chain_id, account) partner_id, chain_id, account, "authorization"
      FROM work WHERE "authorization" IS NOT NULL
     ORDER BY partner_id, chain_id, account, created_at DESC
), last_settled AS (
    SELECT DISTINCT ON (partner_id, chain_id, account) partner_id, chain_id, account, settled_as
      FROM work WHERE settled_as IS NOT NULL
     ORDER BY partner_id, chain_id, account, updated_at DESC
), addresses AS (
    SELECT partner_id, chain_id, account, min(created_at) AS first_seen, max(created_at) AS last_activity
      FROM work GROUP BY partner_id, chain_id, account
)
INSERT INTO "deposit_addresses" ("id", "partner_id", "chain_id", "address", "delegation", "delegate", "authorization", "last_activity_at", "created_at", "updated_at")
SELECT gen_random_uuid(), a.partner_id, a.chain_id, a.account,
       COALESCE(s.settled_as, CASE WHEN l."authorization" IS NOT NULL THEN 'authorized' ELSE 'unknown' END)::"DelegationState",
       CASE WHEN s.settled_as = 'revoked' THEN NULL ELSE l."authorization" ->> 'address' END,
       l."authorization", a.last_activity, a.first_seen, now()
  FROM addresses a
  LEFT JOIN latest_authorization l USING (partner_id, chain_id, account)
  LEFT JOIN last_settled s USING (partner_id, chain_id, account)
 ORDER BY a.first_seen;
