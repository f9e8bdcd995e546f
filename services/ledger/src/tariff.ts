import type { ChainTariff } from "@sweep/chain";

/** A partner's agreement on one chain: a rate it sets replaces the configured one. */
export interface AgreementRates {
  rateBps: number | null;
  nativeMarkupBps: number | null;
}

export function partnerTariff(configured: ChainTariff, agreement: AgreementRates | null): ChainTariff {
  return {
    ...configured,
    rateBps: agreement?.rateBps ?? configured.rateBps,
    nativeMarkupBps: agreement?.nativeMarkupBps ?? configured.nativeMarkupBps,
  };
}
