import { getAddress } from "ethers";
import { factoryDeployment } from "./devnet-addresses";

/**
 * The delegate factory on a chain: `FACTORY_ADDRESS_<chain_id>` where it was deployed elsewhere
 * than through the CREATE2 deployer, otherwise the deterministic address `pnpm start` deploys to.
 */
export function factoryAddress(chainId: number, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env[`FACTORY_ADDRESS_${chainId}`];
  return getAddress(configured ?? factoryDeployment().address);
}
