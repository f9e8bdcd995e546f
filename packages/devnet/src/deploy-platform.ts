import { concat, type JsonRpcProvider, type Signer } from "ethers";
import { CREATE2_DEPLOYER, devTokenDeployment, factoryDeployment, type Create2Deployment } from "@sweep/chains";
import { createProvider } from "@sweep/rpc";
import type { ChainEndpoint } from "./chains";

export interface PlatformContract {
  name: string;
  address: string;
  /** false when its code was already there */
  deployed: boolean;
}

/**
 * Deploys the delegate factory and the chain's devnet tokens through the CREATE2 deployer that
 * anvil predeploys, so their addresses are the ones the registry computes. Each is deployed only
 * when its code is missing: running this again, or on a chain restored from its state file, sends
 * nothing. Gas comes from anvil's first default account (unlocked on anvil).
 */
export async function deployPlatformContracts(
  rpcUrl: string,
  chainId: number,
  tokens: ReadonlyArray<{ ticker: string; decimals: number }>,
): Promise<PlatformContract[]> {
  const provider = createProvider(rpcUrl, chainId);
  // Blocks come every second or so; ethers' default 4 s polling would make each receipt wait.
  provider.pollingInterval = 200;
  try {
    if ((await provider.getCode(CREATE2_DEPLOYER)) === "0x") throw new Error(`chain ${chainId} has no CREATE2 deployer at ${CREATE2_DEPLOYER}`);
    const signer = await provider.getSigner(0);
    const contracts: PlatformContract[] = [];
    for (const deployment of [factoryDeployment(), ...tokens.map((t) => devTokenDeployment(t.ticker, t.decimals))]) {
      contracts.push(await deployOnce(provider, signer, deployment));
    }
    return contracts;
  } finally {
    provider.destroy();
  }
}

/** The platform contracts on each of these chains at once, one line each said: where it is, and whether it was deployed now. */
export async function deployPlatformToChains(endpoints: readonly ChainEndpoint[], say: (line: string) => void): Promise<void> {
  await Promise.all(
    endpoints.map(async ({ chain, rpcUrl }) => {
      for (const contract of await deployPlatformContracts(rpcUrl, chain.chainId, chain.tokens)) {
        say(`chain ${chain.chainId}: ${contract.name} at ${contract.address}${contract.deployed ? " (deployed now)" : ""}`);
      }
    }),
  );
}

async function deployOnce(provider: JsonRpcProvider, signer: Signer, deployment: Create2Deployment): Promise<PlatformContract> {
  const { name, address } = deployment;
  const hasCode = async () => (await provider.getCode(address)) !== "0x";
  if (await hasCode()) return { name, address, deployed: false };
  try {
    const tx = await signer.sendTransaction({ to: CREATE2_DEPLOYER, data: concat([deployment.salt, deployment.initCode]) });
    await tx.wait();
  } catch (err) {
    // Another `pnpm start` deployed it in the meantime: the deployer then reverts on the taken address.
    if (await hasCode()) return { name, address, deployed: false };
    throw err;
  }
  if (!(await hasCode())) throw new Error(`${name}: the deployment left no code at ${address}`);
  return { name, address, deployed: true };
}
