import { ApiError } from "./api-error";

/** A query's chain_id must name a chain of this API's environment: otherwise 400 invalid_query naming it. */
export function checkQueryChain(chainId: number | undefined, chains: ReadonlyMap<number, unknown>): void {
  if (chainId !== undefined && !chains.has(chainId)) {
    throw new ApiError("invalid_query", `chain_id ${chainId} is not a chain of this API; use one of ${[...chains.keys()].join(", ")}`);
  }
}
