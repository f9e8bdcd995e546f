import { AbiCoder, getAddress, getCreate2Address, keccak256, solidityPacked, toUtf8Bytes } from "ethers";
import { loadArtifact } from "@sweep/contracts";

/** The CREATE2 deployer that anvil (and most public chains) has at this address. */
export const CREATE2_DEPLOYER = "0x4e59b44847b379578588920cA78FbF26c0B4956C";

export interface Create2Deployment {
  name: string;
  salt: string;
  initCode: string;
  address: string;
}

function create2(name: string, label: string, initCode: string): Create2Deployment {
  const salt = keccak256(toUtf8Bytes(`sweep.devnet.${label}`));
  return { name, salt, initCode, address: getCreate2Address(CREATE2_DEPLOYER, salt, keccak256(initCode)) };
}

/** The delegate factory: the same address on every chain it is deployed to through the CREATE2 deployer. */
export function factoryDeployment(): Create2Deployment {
  return create2("DelegateFactory", "DelegateFactory", loadArtifact("DelegateFactory").bytecode);
}

/** The delegate factory's code once deployed: the compiled runtime code as is (the factory has no immutables). */
export function factoryRuntimeCode(): string {
  return loadArtifact("DelegateFactory").deployedBytecode;
}

/** A devnet token (public mint), deterministic per ticker and decimals. */
export function devTokenDeployment(ticker: string, decimals: number): Create2Deployment {
  const args = AbiCoder.defaultAbiCoder().encode(["string", "string", "uint8"], [`Devnet ${ticker}`, ticker, decimals]);
  const initCode = solidityPacked(["bytes", "bytes"], [loadArtifact("DevToken").bytecode, args]);
  return create2(`DevToken ${ticker}`, `DevToken.${ticker}.${decimals}`, initCode);
}

export function devnetTokenAddress(_chainId: number, ticker: string, decimals: number): string {
  return getAddress(devTokenDeployment(ticker, decimals).address);
}
