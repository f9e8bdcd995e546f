/**
 * hot_wallet.deploy through the real sender on anvil, for a partner that is disabled: its pending
 * hot wallets wait without a batch and deploy once it is enabled again.
 */
import { CHAIN_ID, partnerWithGasWallet, registerHotWallet, startHarness, type FundedPartner, type Harness } from "./support";

describe("chain-sender: deploy requests of a disabled partner", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
  }, 60_000);

  const setEnabled = (partner: FundedPartner, enabled: boolean) => h.db.partner.update({ where: { id: partner.partnerId }, data: { enabled } });
  const deployState = async (hotWalletId: string) => ({
    hotWallet: await h.db.hotWallet.findUniqueOrThrow({ where: { id: hotWalletId }, select: { status: true, attempts: true } }),
    batches: (await h.db.batch.findMany({ where: { hotWalletId }, select: { status: true } })).map((b) => b.status),
  });

  it("creates no deploy batch while the partner is disabled, and deploys once it is enabled again", async () => {
    const partner = await partnerWithGasWallet(h);
    const hotWallet = await registerHotWallet(h, partner);
    await setEnabled(partner, false);

    await h.deploys.handle(hotWallet.id);
    await h.deploys.handle(hotWallet.id);
    expect(await deployState(hotWallet.id)).toEqual({ hotWallet: { status: "pending", attempts: 0 }, batches: [] });
    expect(await h.db.chainTransaction.count({ where: { gasWalletId: partner.gasWalletId } })).toBe(0);

    await setEnabled(partner, true);
    await h.deploys.handle(hotWallet.id);
    expect(await deployState(hotWallet.id)).toEqual({ hotWallet: { status: "pending", attempts: 1 }, batches: ["sent"] });
    expect(await h.db.chainTransaction.count({ where: { gasWalletId: partner.gasWalletId } })).toBe(1);
  });

  it("sends a deploy batch made before the partner was disabled, like any batch claimed before it", async () => {
    const partner = await partnerWithGasWallet(h);
    const hotWallet = await registerHotWallet(h, partner);
    // A deployment whose batch was made, the sender stopping before it sent it.
    await h.db.batch.create({ data: { chainId: CHAIN_ID, gasWalletId: partner.gasWalletId, hotWalletId: hotWallet.id, purpose: "deploy_delegate", status: "open" } });
    await setEnabled(partner, false);

    await h.deploys.handle(hotWallet.id);
    expect((await deployState(hotWallet.id)).batches).toEqual(["sent"]);
    expect(await h.db.chainTransaction.count({ where: { gasWalletId: partner.gasWalletId } })).toBe(1);
  });
});
