/** The checks' reads against a real anvil, through the provider main.ts uses. */
import { createProvider, type ChainProvider } from "@sweep/rpc";
import { factoryAddress } from "@sweep/chains";
import { startTestChain, type TestChain } from "@sweep/testkit";
import { Wallet, parseEther } from "ethers";
import { accountKey, balanceKey } from "../src/batch-plan";
import { readChainSnapshot } from "../src/chain-reads";
import { delegationOf } from "../src/pre-send-checks";
import { delegateOnChain } from "./support";

const batching = { batchSize: 4, concurrency: 2 };

describe("chain reads", () => {
  let chain: TestChain;
  let provider: ChainProvider;

  beforeAll(async () => {
    chain = await startTestChain(97);
    provider = createProvider(chain.rpcUrl, 97);
  });
  afterAll(async () => {
    provider.destroy();
    await chain.stop();
  });

  it("reads code, nonce and balances of every address at one block", async () => {
    const fresh = Wallet.createRandom();
    const funded = Wallet.createRandom();
    await chain.setBalance(funded.address, parseEther("2"));
    await chain.mintUsdt(funded.address, 123n);
    const delegated = Wallet.createRandom();
    const delegate = Wallet.createRandom().address;
    await delegateOnChain(chain, delegated, delegate);
    const accounts = [fresh, funded, delegated].map((w) => w.address);

    const snapshot = await readChainSnapshot(provider, { accounts, tokenBalances: accounts.map((account) => ({ account, token: chain.usdt.address })) }, batching);

    expect(snapshot.blockNumber).toBe(await chain.provider.getBlockNumber());
    expect(snapshot.blockGasLimit).toBe((await chain.provider.getBlock("latest"))!.gasLimit);
    expect(snapshot.accounts.get(accountKey(fresh.address))).toEqual({ code: "0x", nonce: 0, nativeBalance: 0n });
    expect(snapshot.accounts.get(accountKey(funded.address))).toEqual({ code: "0x", nonce: 0, nativeBalance: parseEther("2") });
    const delegatedState = snapshot.accounts.get(accountKey(delegated.address))!;
    expect(delegationOf(delegatedState.code)).toEqual({ kind: "delegated", to: delegate });
    expect(delegatedState.nonce).toBe(1);
    expect([fresh, funded, delegated].map((w) => snapshot.tokenBalances.get(balanceKey(w.address, chain.usdt.address)))).toEqual([0n, 123n, 0n]);
  });

  it("fails when the node does not answer", async () => {
    const down = createProvider("http://127.0.0.1:9", 97, 1_000);
    try {
      await expect(readChainSnapshot(down, { accounts: [Wallet.createRandom().address], tokenBalances: [] }, batching)).rejects.toThrow();
    } finally {
      down.destroy();
    }
  });

  it("fails when the node answers one call of a batch with an error", async () => {
    const account = Wallet.createRandom().address;
    // The factory has no balanceOf: the call reverts.
    await expect(readChainSnapshot(provider, { accounts: [account], tokenBalances: [{ account, token: factoryAddress(97) }] }, batching)).rejects.toThrow("eth_call failed");
  });

  it("fails when a token answers nothing, rather than reading a zero balance", async () => {
    const account = Wallet.createRandom().address;
    await expect(readChainSnapshot(provider, { accounts: [account], tokenBalances: [{ account, token: Wallet.createRandom().address }] }, batching)).rejects.toThrow();
  });
});
