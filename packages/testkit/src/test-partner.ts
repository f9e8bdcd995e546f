import { createSealedGasWalletKey, developmentKek, storedKeySigner, type GasWalletSigner } from "@sweep/key-custody";
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from "@sweep/credentials";
import type { Db } from "@sweep/db";

export interface TestPartner {
  partnerId: string;
  apiKey: string;
  gasWallet: string;
  signer: GasWalletSigner;
  /** `{ Authorization: "Bearer …" }` */
  auth: { Authorization: string };
}

/** A testnet partner as `sweepctl partner create` makes it (gas wallet sealed under the development KEK). */
export async function createTestPartner(db: Db, name = "test partner"): Promise<TestPartner> {
  const sealed = createSealedGasWalletKey(developmentKek);
  const apiKey = generateApiKey("testnet");
  const partner = await db.partner.create({
    data: {
      name,
      environment: "testnet",
      gasWallet: { create: sealed },
      apiKeys: { create: { hash: hashApiKey(apiKey), prefix: apiKeyDisplayPrefix(apiKey) } },
    },
  });
  return {
    partnerId: partner.id,
    apiKey,
    gasWallet: sealed.address,
    signer: storedKeySigner(sealed, [developmentKek]),
    auth: { Authorization: `Bearer ${apiKey}` },
  };
}
