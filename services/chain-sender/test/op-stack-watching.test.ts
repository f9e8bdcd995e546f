import { toBigInt } from "@sweep/db";
import { OP_STACK_TEST_CHAIN } from "@sweep/testkit";
import { toQuantity } from "ethers";
import { partnerWithGasWallet, registerHotWallet, startHarness, watchUntil, type Harness } from "./support";

// An OP-stack chain (anvil in optimism mode: it charges the L1 data fee, its receipts do not name it)
// behind a load-balanced provider one of whose three backends lags the head: the watcher reads what a
// transaction paid for its L1 data once, as it settles it, never in the rounds that only wait for its
// confirmations, and books what the chain charged, to the wei.

const CONFIRMATIONS = 3;
const L1_READS = ["eth_getStorageAt", "eth_getRawTransactionByHash"];

describe("chain-sender on an OP-stack chain behind a provider with a lagging backend", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      configured: { chain: OP_STACK_TEST_CHAIN, node: "anvil-optimism", env: { [`CONFIRMATIONS_${OP_STACK_TEST_CHAIN.chainId}`]: String(CONFIRMATIONS) } },
      proxyBackends: 3,
    });
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
  }, 60_000);

  const l1Reads = () => L1_READS.reduce((sum, method) => sum + (h.proxy!.counts().byMethod[method] ?? 0), 0);

  it("reads the L1 fee once, when the transaction settles, and books what the chain charged", async () => {
    const partner = await partnerWithGasWallet(h);
    const hotWallet = await registerHotWallet(h, partner);
    await h.deploys.handle(hotWallet.id);
    const [sent] = await h.db.chainTransaction.findMany({ where: { gasWalletId: partner.gasWalletId } });
    const receipt = (await h.chain.provider.getTransactionReceipt(sent!.hash))!;
    h.proxy!.lag(2, { backend: 1 });

    const watcher = h.watcher();
    const readsBefore = l1Reads();
    // Rounds at heads where the receipt is there but not yet CONFIRMATIONS deep: the receipt alone.
    for (let depth = 1; depth < CONFIRMATIONS; depth++) {
      await watcher.runOnce();
      await watcher.runOnce();
      expect(await h.db.chainTransaction.findUniqueOrThrow({ where: { id: sent!.id } })).toMatchObject({ status: "broadcast" });
      await h.chain.provider.send("evm_mine", []);
    }
    expect(l1Reads()).toBe(readsBefore);

    const settled = await watchUntil(watcher, "the deployment settled", async () => {
      const row = await h.db.chainTransaction.findUniqueOrThrow({ where: { id: sent!.id } });
      return row.status === "confirmed" ? row : undefined;
    });
    const balanceAt = (block: number) => h.chain.provider.send("eth_getBalance", [partner.gasWallet, toQuantity(block)]).then(BigInt);
    const charged = (await balanceAt(receipt.blockNumber - 1)) - (await balanceAt(receipt.blockNumber)) - receipt.gasUsed * receipt.gasPrice;
    expect(charged).toBeGreaterThan(0n);
    expect(toBigInt(settled.l1Fee!)).toBe(charged);
    expect(l1Reads()).toBeGreaterThan(readsBefore);
    expect(h.proxy!.counts().faults.lagged).toBeGreaterThan(0);
  }, 60_000);
});
