import { createSealedGasWalletKey, developmentKek, storedKeySigner, type GasWalletSigner } from "@sweep/chain";
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from "@sweep/common";
import type { Db } from "@sweep/db";
import { runSweepctl } from "./sweepctl-process";

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

/**
 * A testnet partner as `sweepctl partner create` makes it when the services keep keys in a PKCS#11
 * token (`env`: a SoftHsmToken's): the gas wallet's key is generated in the token, never seen here.
 */
export async function createTokenPartner(env: Record<string, string>, name = "test partner"): Promise<Omit<TestPartner, "signer">> {
  const created = await runSweepctl(["partner", "create", "--name", name, "--json"], env);
  if (created.code !== 0) throw new Error(`sweepctl partner create exited ${created.code}: ${created.stderr}`);
  const { partner_id: partnerId, api_key: apiKey, gas_wallet: gasWallet } = JSON.parse(created.stdout) as { partner_id: string; api_key: string; gas_wallet: string };
  return { partnerId, apiKey, gasWallet, auth: { Authorization: `Bearer ${apiKey}` } };
}
