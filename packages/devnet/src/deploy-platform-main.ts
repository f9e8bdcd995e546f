/**
 * `node --import tsx packages/devnet/src/deploy-platform-main.ts`: the platform contracts step of
 * `pnpm start` on its own, for chains that something else runs (docker-compose.yml's anvils). Deploys
 * the delegate factory and the devnet tokens to every chain of SERVICE_ENV, reached at
 * RPC_URL_<chain_id> or the local anvil's port; what is already there is left alone.
 */
import { z } from "zod";
import { baseEnv, loadConfig } from "@sweep/common";
import { chainEndpoints } from "./chains";
import { deployPlatformToChains } from "./deploy-platform";

const deployEnv = z.object({ SERVICE_ENV: baseEnv.SERVICE_ENV });

async function main(): Promise<void> {
  const { SERVICE_ENV } = loadConfig(deployEnv);
  // The deployment is paid by anvil's unlocked first account: only the devnet has one.
  if (SERVICE_ENV !== "testnet") throw new Error(`SERVICE_ENV=${SERVICE_ENV}: the platform contracts are deployed here only to the testnet devnet`);
  await deployPlatformToChains(chainEndpoints(SERVICE_ENV), (line) => console.log(line));
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    console.error(`deploy-platform: ${err.message}`);
    process.exit(1);
  },
);
