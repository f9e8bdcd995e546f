export { loadArtifact, type Artifact, type ContractName } from "./artifacts";
export { contractAt, contractFactory } from "./contract-factories";
export { delegateAddress } from "./delegate-address";
export { SWEEP_DELEGATE_ABI, sweepDelegateInterface } from "./sweep-delegate-abi";
export { BATCH_GAS_TOO_LOW_SELECTOR, SWEEP_ERRORS, SWEEP_ERROR_SELECTORS, sweepFailureReason, type SweepError, type SweepFailureReason } from "./sweep-errors";
export { ITEM_GAS_NEEDED } from "./sweep-gas";
export { NATIVE_TOKEN, encodeSweepBatch, encodeSweepItems, type SweepItem } from "./batch-encoding";
export { decodeSweepOutcomes, type FailedOutcome, type LogLike, type SweepOutcome, type SweptOutcome } from "./batch-outcomes";
