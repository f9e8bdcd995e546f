import { partnerTariff } from "./partner-tariff";
import type { ChainTariff } from "./tariff";

describe("a partner's tariff", () => {
  const configured: ChainTariff = { chainId: 97, rateBps: 7000, nativeMarkupBps: 1000, classicGas: { USDT: { new: 1n, existing: 1n } } };
  it.each([
    ["no agreement keeps the configured rates", null, 7000, 1000],
    ["an agreement replaces the rates it sets", { rateBps: 5000, nativeMarkupBps: 0 }, 5000, 0],
    ["a rate the agreement leaves null stays configured", { rateBps: 0, nativeMarkupBps: null }, 0, 1000],
  ])("%s", (_what, agreement, rateBps, nativeMarkupBps) => {
    expect(partnerTariff(configured, agreement)).toEqual({ ...configured, rateBps, nativeMarkupBps });
  });
});
