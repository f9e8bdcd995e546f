-- When the API last admitted each key (the console lists it).
ALTER TABLE "api_keys" ADD COLUMN "last_used_at" TIMESTAMPTZ(3);

-- The partner console's users, their one-time sign-in links and their sessions.
CREATE TABLE "console_users" (
    "id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disabled_at" TIMESTAMPTZ(3),

    CONSTRAINT "console_users_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "console_sign_in_tokens" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "console_sign_in_tokens_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "console_sessions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "hash" TEXT NOT NULL,
    "csrf_token" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "console_users_email_key" ON "console_users"("email");
CREATE INDEX "console_users_partner_id_idx" ON "console_users"("partner_id");
CREATE UNIQUE INDEX "console_sign_in_tokens_hash_key" ON "console_sign_in_tokens"("hash");
CREATE INDEX "console_sign_in_tokens_user_id_idx" ON "console_sign_in_tokens"("user_id");
CREATE UNIQUE INDEX "console_sessions_hash_key" ON "console_sessions"("hash");
CREATE INDEX "console_sessions_user_id_idx" ON "console_sessions"("user_id");

ALTER TABLE "console_users" ADD CONSTRAINT "console_users_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "console_sign_in_tokens" ADD CONSTRAINT "console_sign_in_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "console_users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "console_sessions" ADD CONSTRAINT "console_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "console_users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
