import { startAnvil } from "@sweep/anvil";
import { startHardhatNode } from "@sweep/hardhat-node";
import { getBytes, parseEther, parseUnits, type Wallet } from "ethers";
import { labelledWallet, sendBatch, setBalance, startSweepChain, type StartNode, type SweepChain } from "./support/sweep-chain";

/**
 * EIP-7702 charges 25,000 per authorization and gives 12,500 back only when the authority's
 * account already exists: the tariff's `extra_gas.account` and the ledger's gas split rest on it.
 * anvil 1.7 gives it back for an address without an account too (ENVIRONMENT.md), hardhat's EDR
 * does as the EIP says; this pins both, so a change of either node shows here first.
 */
const EXISTING_ACCOUNT_REFUND = 12_500n;

/** EIP-2028 calldata gas: the deposit addresses' zero bytes differ, and with them their batches' data. */
function calldataGas(data: string): bigint {
  return getBytes(data).reduce((gas, byte) => gas + (byte === 0 ? 4n : 16n), 0n);
}

describe.each<[string, StartNode, bigint]>([
  ["hardhat", startHardhatNode, EXISTING_ACCOUNT_REFUND],
  ["anvil", startAnvil, 0n],
])("on %s, the first sweep of an address without an account", (_name, start, extra) => {
  let chain: SweepChain;

  beforeAll(async () => {
    chain = await startSweepChain(start);
    // The hot wallet's token balance exists already, as after its first sweep, so both batches update it alike.
    await (await chain.token.getFunction("mint")(chain.hotWallet, 1n)).wait();
  }, 60_000);

  afterAll(async () => {
    await chain?.stop();
  });

  /** The gas of a batch of one first sweep of the wallet, less its calldata. */
  async function firstSweepGas(wallet: Wallet): Promise<bigint> {
    await (await chain.token.getFunction("mint")(wallet.address, parseUnits("10", 6))).wait();
    const authorization = wallet.authorizeSync({ address: chain.delegateAddress, nonce: 0, chainId: chain.chainId });
    // One unit stays behind: no storage is cleared, so no refund but the authorization's, under EIP-3529's cap of a fifth.
    const item = { account: wallet.address, token: chain.tokenAddress, amount: 0n, keepOneUnit: true };
    const { receipt, outcomes } = await sendBatch(chain, [item], [authorization]);
    expect(outcomes).toMatchObject([{ account: wallet.address, swept: true }]);
    // gasUsed of at least 4 × 12,500 puts the gross at 5 × 12,500 or more: the cap cannot cut the refund.
    expect(receipt.gasUsed).toBeGreaterThanOrEqual(EXISTING_ACCOUNT_REFUND * 4n);
    const transaction = (await chain.provider.getTransaction(receipt.hash))!;
    return receipt.gasUsed - calldataGas(transaction.data);
  }

  it(`costs ${extra} gas more than one of an address holding the native coin`, async () => {
    const tokenOnly = labelledWallet(chain.provider, "refund: token only");
    const holdingNative = labelledWallet(chain.provider, "refund: holding native");
    await setBalance(chain.provider, holdingNative.address, parseEther("0.01"));

    expect((await firstSweepGas(tokenOnly)) - (await firstSweepGas(holdingNative))).toBe(extra);
  });
});
