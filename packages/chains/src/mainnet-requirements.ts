import type { ChainInfo } from "./registry";
import { DEFAULT_FEE_CEILINGS, classicGasVariable } from "@sweep/fees";
import { MAINNET_FLOOR_CONFIRMATIONS } from "./presets";

/**
 * What `SERVICE_ENV=mainnet` demands of a served chain beyond well-formed variables, each gap named
 * by its variable (never a value): a classic benchmark for every listed token (without one the
 * token's sweeps carry no fee), both fee ceilings (the defaults are testnet guesses), and at least
 * the chain's minimum confirmations (MAINNET_FLOOR_CONFIRMATIONS for a chain without its own). A variable set but malformed is not named again here: its own
 * check already says what is wrong with it.
 */
export function mainnetGaps(chain: Pick<ChainInfo, "chainId" | "tokens" | "confirmations" | "minConfirmations" | "finality">, env: NodeJS.ProcessEnv): string[] {
  const id = chain.chainId;
  const unset = (variable: string) => !env[variable];
  const gaps: string[] = [];
  for (const { ticker } of chain.tokens) {
    const variable = classicGasVariable(id, ticker);
    if (unset(variable)) gaps.push(`${variable} is required on mainnet: without the classic benchmark, ${ticker} sweeps on chain ${id} carry no fee`);
  }
  // A chain without default ceilings has had both demanded already, on any environment.
  if (DEFAULT_FEE_CEILINGS[id]) {
    if (unset(`MAX_FEE_PER_GAS_${id}`)) gaps.push(`MAX_FEE_PER_GAS_${id} is required on mainnet: the most a transaction on chain ${id} may offer per gas, in wei`);
    if (unset(`MAX_PRIORITY_FEE_PER_GAS_${id}`)) gaps.push(`MAX_PRIORITY_FEE_PER_GAS_${id} is required on mainnet: the most tip per gas on chain ${id}, in wei`);
  }
  const minimum = chain.minConfirmations ?? MAINNET_FLOOR_CONFIRMATIONS;
  // The node's finalized block is past any depth a reorg reaches.
  if (chain.finality !== "finalized" && chain.confirmations < minimum) gaps.push(`CONFIRMATIONS_${id} must be at least ${minimum} on mainnet, chain ${id}'s minimum`);
  return gaps;
}
