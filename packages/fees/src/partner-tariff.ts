import type { ChainTariff } from "./tariff";

/** A partner's agreement on one chain: a rate it sets replaces the configured one. */
export interface AgreementRates {
  rateBps: number | null;
  nativeMarkupBps: number | null;
}

/** The tariff a partner pays on a chain: what the fees are computed with and what GET /v1/tariff shows. */
export function partnerTariff(configured: ChainTariff, agreement: AgreementRates | null): ChainTariff {
  return {
    ...configured,
    rateBps: agreement?.rateBps ?? configured.rateBps,
    nativeMarkupBps: agreement?.nativeMarkupBps ?? configured.nativeMarkupBps,
  };
}
