import { Wallet, type HDNodeWallet } from "ethers";
import { authorizationBody, type partnerApi } from "./partner-api";
import { eventually } from "./stack";
import type { ChainConnection } from "./test-chains";

type PartnerApi = ReturnType<typeof partnerApi>;

/** Registers a hot wallet through the API and waits until its delegate is deployed: the hot wallet as GET /v1/hot-wallets shows it. */
export async function activeHotWallet(api: PartnerApi, chainId: number, address: string, timeoutMs = 60_000): Promise<{ address: string; delegate: string }> {
  const registered = await api("POST", "/v1/hot-wallets", { chain_id: chainId, address });
  if (registered.status !== 200 && registered.status !== 202) throw new Error(`hot wallet registration answered ${registered.status}: ${JSON.stringify(registered.body)}`);
  return eventually(
    "the hot wallet to be active",
    async () => {
      const list = await api("GET", "/v1/hot-wallets");
      return (list.body.hot_wallets as Array<{ address: string; delegate: string; chain_id: number; status: string }>).find(
        (h) => h.chain_id === chainId && h.address === registered.body.address && h.status === "active",
      );
    },
    timeoutMs,
  );
}

/** A new deposit address holding `usdt` units of the chain's devnet USDT, and its owner's authorization of `delegate` in the API's shape. */
export async function fundedDeposit(chain: ChainConnection, delegate: string, usdt: bigint): Promise<{ owner: HDNodeWallet; authorization: ReturnType<typeof authorizationBody> }> {
  const owner = Wallet.createRandom();
  await chain.mintUsdt(owner.address, usdt);
  return { owner, authorization: authorizationBody(owner.authorizeSync({ address: delegate, nonce: 0n, chainId: BigInt(chain.chainId) })) };
}
