-- Where each gas wallet key is held: existing rows are sealed keys and stay valid.
ALTER TABLE "gas_wallets" ADD COLUMN "key_custody" TEXT NOT NULL DEFAULT 'sealed',
ADD COLUMN "key_label" TEXT,
ALTER COLUMN "encrypted_key" DROP NOT NULL,
ALTER COLUMN "kek_id" DROP NOT NULL;

-- A sealed key has its ciphertext and KEK id, a key in a token its label.
ALTER TABLE "gas_wallets" ADD CONSTRAINT "gas_wallets_key_custody_check" CHECK (
  ("key_custody" = 'sealed' AND "encrypted_key" IS NOT NULL AND "kek_id" IS NOT NULL AND "key_label" IS NULL)
  OR ("key_custody" = 'pkcs11' AND "key_label" IS NOT NULL AND "encrypted_key" IS NULL AND "kek_id" IS NULL)
);
