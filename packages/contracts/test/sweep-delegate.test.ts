import { Contract, Wallet, concat, parseEther, parseUnits } from "ethers";
import { BATCH_GAS_TOO_LOW_SELECTOR, NATIVE_TOKEN, SWEEP_ERROR_SELECTORS, encodeSweepBatch, sweepDelegateInterface, type SweepItem } from "../src";
import { authorize, deploy, deployDelegate, labelledWallet, sendBatch, setBalance, startSweepChain, type SweepChain } from "./support/sweep-chain";

let chain: SweepChain;
let walletCount = 0;

beforeAll(async () => {
  chain = await startSweepChain();
});

afterAll(async () => {
  await chain?.stop();
});

/** A deposit address not used by any other test. */
function depositWallet(): Wallet {
  return labelledWallet(chain.provider, `deposit ${++walletCount}`);
}

async function mint(token: Contract, to: string, amount: bigint): Promise<void> {
  await (await token.getFunction("mint")(to, amount)).wait();
}

async function tokenBalance(owner: string, token: Contract = chain.token): Promise<bigint> {
  return token.getFunction("balanceOf")(owner) as Promise<bigint>;
}

function tokenItem(account: Wallet, extra: Partial<SweepItem> = {}): SweepItem {
  return { account: account.address, token: chain.tokenAddress, amount: 0n, keepOneUnit: false, ...extra };
}

/** Delegates the address to `delegate` as a revocation is sent: a type-4 transaction of the gas wallet to itself. */
async function delegateTo(wallet: Wallet, delegate: string): Promise<void> {
  await (await chain.operator.sendTransaction({ type: 4, to: chain.operatorAddress, authorizationList: [await authorize(chain, wallet, delegate)] })).wait();
}

/** Delegates the address to the delegate with a sweep of nothing: the state of a repeat sweep. */
async function delegated(wallet: Wallet): Promise<Wallet> {
  await sendBatch(chain, [], [await authorize(chain, wallet)]);
  return wallet;
}

describe("SweepDelegate", () => {
  test("first sweep of a token-only address carries its authorization", async () => {
    const deposit = depositWallet();
    const amount = parseUnits("125.5", 6);
    await mint(chain.token, deposit.address, amount);
    const hotBefore = await tokenBalance(chain.hotWallet);

    const { receipt, outcomes } = await sendBatch(chain, [tokenItem(deposit)], [await authorize(chain, deposit)]);

    expect(receipt.type).toBe(4);
    expect(await chain.provider.getCode(deposit.address)).toBe(concat(["0xef0100", chain.delegateAddress]).toLowerCase());
    expect(await chain.provider.getTransactionCount(deposit.address)).toBe(1); // the authorization's nonce
    expect(await tokenBalance(deposit.address)).toBe(0n);
    expect(await tokenBalance(chain.hotWallet)).toBe(hotBefore + amount);
    expect(outcomes).toEqual([{ account: deposit.address, swept: true, amount, gasUsed: expect.any(BigInt) }]);
    expect(outcomes[0]!.gasUsed).toBeGreaterThan(0n);
    expect(outcomes[0]!.gasUsed).toBeLessThan(receipt.gasUsed);
  });

  test("first sweep of an address that holds the native coin", async () => {
    const deposit = depositWallet();
    await setBalance(chain.provider, deposit.address, parseEther("0.01"));
    await mint(chain.token, deposit.address, 7_000_000n);

    const { outcomes } = await sendBatch(chain, [tokenItem(deposit)], [await authorize(chain, deposit)]);

    expect(outcomes).toEqual([expect.objectContaining({ account: deposit.address, swept: true, amount: 7_000_000n })]);
    expect(await chain.provider.getBalance(deposit.address)).toBe(parseEther("0.01"));
  });

  test("repeat sweep needs no authorization", async () => {
    const deposit = await delegated(depositWallet());
    await mint(chain.token, deposit.address, 3_000_000n);

    const { receipt, outcomes } = await sendBatch(chain, [tokenItem(deposit)]);

    expect(receipt.type).toBe(2);
    expect(outcomes).toEqual([expect.objectContaining({ swept: true, amount: 3_000_000n })]);
    expect(await tokenBalance(deposit.address)).toBe(0n);
  });

  test("native coin sweep moves the whole balance, the address paying no gas", async () => {
    const deposit = await delegated(depositWallet());
    await setBalance(chain.provider, deposit.address, parseEther("1.25"));
    const hotBefore = await chain.provider.getBalance(chain.hotWallet);

    const { outcomes } = await sendBatch(chain, [{ account: deposit.address, token: NATIVE_TOKEN, amount: 0n, keepOneUnit: true }]);

    expect(outcomes).toEqual([expect.objectContaining({ swept: true, amount: parseEther("1.25") })]);
    expect(await chain.provider.getBalance(deposit.address)).toBe(0n);
    expect(await chain.provider.getBalance(chain.hotWallet)).toBe(hotBefore + parseEther("1.25"));
  });

  test("a delegated address still accepts plain native transfers", async () => {
    const deposit = await delegated(depositWallet());
    await (await chain.operator.sendTransaction({ to: deposit.address, value: 5n })).wait();
    expect(await chain.provider.getBalance(deposit.address)).toBe(5n);
  });

  test("keep-one-unit leaves 1 smallest unit, and a balance of 1 is then nothing to sweep", async () => {
    const deposit = await delegated(depositWallet());
    await mint(chain.token, deposit.address, 500n);

    const first = await sendBatch(chain, [tokenItem(deposit, { keepOneUnit: true })]);
    expect(first.outcomes).toEqual([expect.objectContaining({ swept: true, amount: 499n })]);
    expect(await tokenBalance(deposit.address)).toBe(1n);

    const second = await sendBatch(chain, [tokenItem(deposit, { keepOneUnit: true })]);
    expect(second.outcomes).toEqual([expect.objectContaining({ swept: false, reason: "NothingToSweep", selector: SWEEP_ERROR_SELECTORS.NothingToSweep })]);
    expect(await tokenBalance(deposit.address)).toBe(1n);
  });

  test("a partial amount moves exactly that amount; more than the balance fails", async () => {
    const deposit = await delegated(depositWallet());
    await mint(chain.token, deposit.address, 1_000n);

    const { outcomes } = await sendBatch(chain, [tokenItem(deposit, { amount: 300n }), tokenItem(deposit, { amount: 701n }), tokenItem(deposit, { amount: 700n, keepOneUnit: true })]);

    expect(outcomes.map((o) => (o.swept ? o.amount : o.reason))).toEqual([300n, "TokenTransferFailed", "TokenTransferFailed"]);
    expect(await tokenBalance(deposit.address)).toBe(700n);
  });

  test("amounts of any width are decoded from the packed items", async () => {
    const token = await deploy("DevToken", chain.operator, "Wide", "WIDE", 18);
    const deposit = await delegated(depositWallet());
    const huge = (1n << 250n) + 12_345n;
    await mint(token, deposit.address, huge + 1n);

    const { outcomes } = await sendBatch(chain, [tokenItem(deposit, { token: token.target as string, amount: huge }), tokenItem(deposit, { token: token.target as string, amount: 1n })]);

    expect(outcomes.map((o) => o.swept && o.amount)).toEqual([huge, 1n]);
    expect(await tokenBalance(chain.hotWallet, token)).toBe(huge + 1n);
  });

  test("an empty address is nothing to sweep, for a token and for the native coin", async () => {
    const deposit = await delegated(depositWallet());
    const { outcomes } = await sendBatch(chain, [tokenItem(deposit), tokenItem(deposit, { amount: 5n }), { account: deposit.address, token: NATIVE_TOKEN, amount: 0n, keepOneUnit: false }]);
    expect(outcomes.map((o) => !o.swept && o.reason)).toEqual(["NothingToSweep", "NothingToSweep", "NothingToSweep"]);
  });

  test("tokens that return false or revert fail their items only", async () => {
    const falseToken = await deploy("FalseReturningToken", chain.operator);
    const revertingToken = await deploy("RevertingToken", chain.operator);
    const deposit = await delegated(depositWallet());
    await mint(falseToken, deposit.address, 10n);
    await mint(revertingToken, deposit.address, 10n);
    await mint(chain.token, deposit.address, 10n);

    const { receipt, outcomes } = await sendBatch(chain, [
      tokenItem(deposit, { token: falseToken.target as string }),
      tokenItem(deposit, { token: revertingToken.target as string }),
      tokenItem(deposit),
    ]);

    expect(receipt.status).toBe(1);
    expect(outcomes.map((o) => (o.swept ? o.amount : o.reason))).toEqual(["TokenTransferFailed", "TokenTransferFailed", 10n]);
    expect(await tokenBalance(deposit.address, falseToken)).toBe(10n);
    expect(await tokenBalance(deposit.address, revertingToken)).toBe(10n);
  });

  test("only the operator may send a batch", async () => {
    const stranger = labelledWallet(chain.provider, "stranger");
    await setBalance(chain.provider, stranger.address, parseEther("1"));
    const batch = (chain.delegate.connect(stranger) as Contract).getFunction("sweepBatch");
    await expect(batch.staticCall("0x")).rejects.toMatchObject({ revert: { name: "Unauthorized" } });
  });

  test("only the delegate may call a deposit address's sweepAccount", async () => {
    const deposit = await delegated(depositWallet());
    await mint(chain.token, deposit.address, 10n);
    const asAccount = new Contract(deposit.address, sweepDelegateInterface, chain.operator);
    await expect(asAccount.getFunction("sweepAccount").staticCall(chain.tokenAddress, 0n, false)).rejects.toMatchObject({ revert: { name: "Unauthorized" } });
    // Nor may anyone call the delegate's own, which would move the delegate's holdings.
    await expect(chain.delegate.getFunction("sweepAccount").staticCall(chain.tokenAddress, 0n, false)).rejects.toMatchObject({ revert: { name: "Unauthorized" } });
  });

  test("an address delegated to another hot wallet's delegate fails with Unauthorized", async () => {
    const otherHotWallet = labelledWallet(chain.provider, "other hot wallet").address;
    const other = await deployDelegate(chain.factory, chain.operator, otherHotWallet, chain.operatorAddress);
    const deposit = depositWallet();
    await mint(chain.token, deposit.address, 10n);
    await delegateTo(deposit, other.target as string);

    const { outcomes } = await sendBatch(chain, [tokenItem(deposit)]);

    expect(outcomes).toEqual([expect.objectContaining({ swept: false, reason: "Unauthorized", selector: SWEEP_ERROR_SELECTORS.Unauthorized })]);
    expect(await tokenBalance(deposit.address)).toBe(10n);
  });

  test("an address that re-delegated to code answering a fake amount is not believed, and the rest of the batch sweeps", async () => {
    const fake = await deploy("FakeAmountDelegate", chain.operator);
    const liar = depositWallet();
    await mint(chain.token, liar.address, 10n);
    await delegateTo(liar, fake.target as string);
    // What the attack relies on: the address's own code answers a large amount.
    const asLiar = new Contract(liar.address, sweepDelegateInterface, chain.operator);
    expect(await asLiar.getFunction("sweepAccount").staticCall(chain.tokenAddress, 0n, false)).toBe(10n ** 30n);
    const honest = await delegated(depositWallet());
    await mint(chain.token, honest.address, 20n);
    const hotBefore = await tokenBalance(chain.hotWallet);

    const { receipt, outcomes } = await sendBatch(chain, [tokenItem(liar), tokenItem(honest)]);

    expect(receipt.status).toBe(1);
    expect(outcomes).toEqual([
      expect.objectContaining({ account: liar.address, swept: false, reason: "Unauthorized", selector: SWEEP_ERROR_SELECTORS.Unauthorized }),
      expect.objectContaining({ account: honest.address, swept: true, amount: 20n }),
    ]);
    expect(await tokenBalance(chain.hotWallet)).toBe(hotBefore + 20n);
    expect(await tokenBalance(liar.address)).toBe(10n);
  });

  test("an address that is not delegated is a failed item (Unauthorized), not a silent success", async () => {
    const deposit = depositWallet();
    await mint(chain.token, deposit.address, 10n);
    const { outcomes } = await sendBatch(chain, [tokenItem(deposit)]);
    expect(outcomes).toEqual([{ account: deposit.address, swept: false, reason: "Unauthorized", selector: SWEEP_ERROR_SELECTORS.Unauthorized, gasUsed: expect.any(BigInt) }]);
  });

  describe("a token that takes a fee on transfer", () => {
    let feeToken: Contract;
    beforeAll(async () => {
      feeToken = await deploy("FeeOnTransferToken", chain.operator);
    });
    const feeItem = (account: Wallet, extra: Partial<SweepItem> = {}): SweepItem => tokenItem(account, { token: feeToken.target as string, feeOnTransfer: true, ...extra });

    test("marked, the amount reported is what the hot wallet received, for the whole balance, an amount and keep-one-unit", async () => {
      const deposits = [await delegated(depositWallet()), await delegated(depositWallet()), await delegated(depositWallet())];
      for (const d of deposits) await mint(feeToken, d.address, 1_000_000n);
      const hotBefore = await tokenBalance(chain.hotWallet, feeToken);

      const { outcomes } = await sendBatch(chain, [feeItem(deposits[0]!), feeItem(deposits[1]!, { amount: 300_000n }), feeItem(deposits[2]!, { keepOneUnit: true })]);

      // 1% of each transfer is burnt on the way.
      expect(outcomes.map((o) => o.swept && o.amount)).toEqual([990_000n, 297_000n, 990_000n]); // 999,999 sent less a fee of 9,999
      const received = outcomes.reduce((sum, o) => sum + (o.swept ? o.amount : 0n), 0n);
      expect(await tokenBalance(chain.hotWallet, feeToken)).toBe(hotBefore + received);
      expect(await Promise.all(deposits.map((d) => tokenBalance(d.address, feeToken)))).toEqual([0n, 700_000n, 1n]);
    });

    test("unmarked, the amount reported is what was sent, more than arrived", async () => {
      const deposit = await delegated(depositWallet());
      await mint(feeToken, deposit.address, 1_000n);
      const hotBefore = await tokenBalance(chain.hotWallet, feeToken);

      const { outcomes } = await sendBatch(chain, [feeItem(deposit, { feeOnTransfer: false })]);

      expect(outcomes).toEqual([expect.objectContaining({ swept: true, amount: 1_000n })]);
      expect(await tokenBalance(chain.hotWallet, feeToken)).toBe(hotBefore + 990n);
    });

    test("marked items cost only their own balance reads: an unmarked token and the native coin after them report what was sent", async () => {
      const deposit = await delegated(depositWallet());
      await mint(feeToken, deposit.address, 500n);
      await mint(chain.token, deposit.address, 500n);
      await setBalance(chain.provider, deposit.address, 500n);

      const { outcomes } = await sendBatch(chain, [feeItem(deposit), tokenItem(deposit), { account: deposit.address, token: NATIVE_TOKEN, amount: 0n, keepOneUnit: false }]);

      expect(outcomes.map((o) => o.swept && o.amount)).toEqual([495n, 500n, 500n]);
      expect(outcomes[0]!.gasUsed - outcomes[1]!.gasUsed).toBeGreaterThan(1_000n);
    });
  });

  test("a gas limit that cannot give every item its allowance reverts the batch", async () => {
    const deposit = await delegated(depositWallet());
    await mint(chain.token, deposit.address, 10n);
    const batch = { to: chain.delegateAddress, data: encodeSweepBatch([tokenItem(deposit)]) };
    await expect(chain.operator.call({ ...batch, gasLimit: 200_000n })).rejects.toMatchObject({ data: BATCH_GAS_TOO_LOW_SELECTOR });
  });

  test("the delegate knows its hot wallet, operator and itself", async () => {
    const read = (name: string) => chain.delegate.getFunction(name)() as Promise<string>;
    expect(await read("hotWallet")).toBe(chain.hotWallet);
    expect(await read("operator")).toBe(chain.operatorAddress);
    expect(await read("self")).toBe(chain.delegateAddress);
  });
});
