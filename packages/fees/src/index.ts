export * from "./fee-ceiling";
export * from "./partner-tariff";
export * from "./tariff";
export * from "./tx-fee-cap";
export * from "./op-stack-l1-fee";
export * from "./sweep-fee";
