import { Contract, Wallet, parseEther } from "ethers";
import { contractAt, delegateAddress } from "../src";
import { deploy, labelledWallet, setBalance, startSweepChain, type SweepChain } from "./support/sweep-chain";

let chain: SweepChain;

beforeAll(async () => {
  chain = await startSweepChain();
});

afterAll(async () => {
  await chain?.stop();
});

describe("DelegateFactory", () => {
  test("the delegate's address is known off chain before it is deployed", async () => {
    const hotWallet = labelledWallet(chain.provider, "new hot wallet").address;
    const expected = delegateAddress(chain.factory.target as string, hotWallet, chain.operatorAddress);
    expect(await chain.factory.getFunction("delegateAddress")(hotWallet, chain.operatorAddress)).toBe(expected);
    expect(await chain.provider.getCode(expected)).toBe("0x");

    const receipt = await (await chain.factory.getFunction("deploy")(hotWallet, chain.operatorAddress)).wait();

    const events = receipt.logs.map((log: { topics: string[]; data: string }) => chain.factory.interface.parseLog(log)).filter(Boolean);
    expect(events.map((e: { name: string; args: unknown[] }) => [e.name, ...e.args])).toEqual([["DelegateDeployed", expected, hotWallet, chain.operatorAddress]]);
    const delegate = contractAt("SweepDelegate", expected, chain.provider);
    expect(await delegate.getFunction("hotWallet")()).toBe(hotWallet);
    expect(await delegate.getFunction("operator")()).toBe(chain.operatorAddress);
  });

  test("deploying an existing delegate again is a no-op that succeeds", async () => {
    const code = await chain.provider.getCode(chain.delegateAddress);
    const hotWallet = await chain.delegate.getFunction("hotWallet")();
    const deployAgain = chain.factory.getFunction("deploy");
    expect(await deployAgain.staticCall(hotWallet, chain.operatorAddress)).toBe(chain.delegateAddress);

    const receipt = await (await deployAgain(hotWallet, chain.operatorAddress)).wait();

    expect(receipt.status).toBe(1);
    expect(receipt.logs).toHaveLength(0);
    expect(await chain.provider.getCode(chain.delegateAddress)).toBe(code);
  });

  test("another operator or hot wallet gives another delegate", () => {
    const factory = chain.factory.target as string;
    const other = Wallet.createRandom().address;
    const addresses = new Set([
      delegateAddress(factory, chain.hotWallet, chain.operatorAddress),
      delegateAddress(factory, other, chain.operatorAddress),
      delegateAddress(factory, chain.hotWallet, other),
    ]);
    expect(addresses.size).toBe(3);
  });
});

describe("DevToken", () => {
  test("has the decimals it was deployed with and anyone may mint", async () => {
    const bscUsdt = await deploy("DevToken", chain.operator, "Tether USD", "USDT", 18);
    expect(await bscUsdt.getFunction("decimals")()).toBe(18n);
    expect(await chain.token.getFunction("decimals")()).toBe(6n);

    const anyone = labelledWallet(chain.provider, "minter");
    await setBalance(chain.provider, anyone.address, parseEther("1"));
    await (await (bscUsdt.connect(anyone) as Contract).getFunction("mint")(anyone.address, 42n)).wait();
    expect(await bscUsdt.getFunction("balanceOf")(anyone.address)).toBe(42n);
  });
});
