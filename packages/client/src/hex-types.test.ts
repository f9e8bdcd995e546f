/**
 * The SDK's addresses and hashes as viem and ethers take them: `pnpm typecheck` compiles this file,
 * so a response field typed plain `string` again fails there (each assignment below is cast-free);
 * jest runs it, so the values are checked too.
 */
import { signatureHeader } from "../../../services/webhook-dispatcher/src/signature";
import { getAddress as ethersGetAddress, Wallet } from "ethers";
import { getAddress, isHash, type Address, type Hash } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { recoverAuthorizationAddress } from "viem/utils";
import { signAuthorization, SweepClient, verifyWebhook, type Sweep, type SweepRequest } from "./index";

const key = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const hotWallet = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const deposit = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const txHash = `0x${"ab".repeat(32)}`;

const sweep = {
  id: "4f9c0a8e-2d6b-4b7e-9a55-0c1f3e2d4b6a",
  chain_id: 11155111,
  hot_wallet: hotWallet,
  account: deposit,
  token: "USDT",
  token_address: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
  status: "swept",
  attempts: 1,
  tx_hash: txHash,
  created_at: "2026-11-25T12:00:00.000Z",
  updated_at: "2026-11-25T12:00:01.000Z",
};

/** A client whose API answers every request with `body`, recording what was sent. */
function clientAnswering(body: unknown) {
  const sent: unknown[] = [];
  const fetch = async (request: Request) => {
    sent.push(request.method === "GET" ? undefined : await request.json());
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { client: new SweepClient({ baseUrl: "http://127.0.0.1:1", apiKey: "svc_test_x", fetch: fetch as typeof globalThis.fetch }), sent };
}

describe("addresses and hashes the SDK hands out", () => {
  it("a response's are `0x${string}`: viem's Address and Hash, ethers' strings", async () => {
    const { client } = clientAnswering(sweep);
    const answer: Sweep = await client.sweeps.get(sweep.id);
    const account: Address = answer.account;
    const wallet: Address = answer.hot_wallet;
    const hash: Hash | undefined = answer.tx_hash;
    expect([getAddress(account), ethersGetAddress(wallet), hash !== undefined && isHash(hash)]).toEqual([deposit, hotWallet, true]);
    // @ts-expect-error a response's address is `0x${string}`, so a string that is not cannot pass for one
    const notAnAddress: Sweep["account"] = "deposit";
    expect(notAnAddress).toBe("deposit");
  });

  it("a webhook event's are `0x${string}` too", () => {
    const signedAt = new Date();
    const event = { id: sweep.id, type: "deposit_address.activity", created_at: signedAt.toISOString(), data: { chain_id: 11155111, address: deposit, tx_hash: txHash, block_number: 7 } };
    const body = JSON.stringify(event);
    const verified = verifyWebhook(body, { "service-signature": signatureHeader("whsec_test", body, signedAt) }, "whsec_test");
    if (verified.type !== "deposit_address.activity") throw new Error(`not the event sent: ${verified.type}`);
    const address: Address = verified.data.address;
    const hash: Hash = verified.data.tx_hash;
    expect({ address, hash }).toEqual({ address: deposit, hash: txHash });
  });

  it("signAuthorization's authorization goes to viem as it is", async () => {
    const account = privateKeyToAccount(key);
    const authorization = await signAuthorization(account, { chainId: 11155111, address: hotWallet, nonce: 0 });
    const signer = await recoverAuthorizationAddress({
      authorization: { address: authorization.address, chainId: authorization.chain_id, nonce: authorization.nonce },
      signature: { r: authorization.r, s: authorization.s, yParity: authorization.y_parity },
    });
    expect(signer).toBe(account.address);
  });

  it("a request takes a plain string: what ethers and a database give", async () => {
    const { client, sent } = clientAnswering(sweep);
    const fromDatabase: string = hotWallet.toLowerCase();
    const request: SweepRequest = { chain_id: 11155111, hot_wallet: fromDatabase, account: new Wallet(key).address, token: "USDT", external_id: "x-1" };
    await client.sweeps.create(request);
    expect(sent).toEqual([request]);
  });
});
