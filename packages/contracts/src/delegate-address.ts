import { AbiCoder, concat, getCreate2Address, keccak256 } from "ethers";
import { loadArtifact } from "./artifacts";

/**
 * Address of the SweepDelegate of (hotWallet, operator) deployed by the DelegateFactory at
 * `factory`, known before it is deployed (mirrors DelegateFactory.delegateAddress).
 */
export function delegateAddress(factory: string, hotWallet: string, operator: string): string {
  const args = AbiCoder.defaultAbiCoder().encode(["address", "address"], [hotWallet, operator]);
  const initCode = concat([loadArtifact("SweepDelegate").bytecode, args]);
  return getCreate2Address(factory, keccak256(args), keccak256(initCode));
}
