import { Contract, ContractFactory, type ContractRunner, type Signer } from "ethers";
import { loadArtifact, type ContractName } from "./artifacts";

/** ethers ContractFactory of a compiled contract, to deploy it. */
export function contractFactory(name: ContractName, signer?: Signer): ContractFactory {
  const { abi, bytecode } = loadArtifact(name);
  return new ContractFactory(abi, bytecode, signer);
}

/** ethers Contract of a compiled contract at an address. */
export function contractAt(name: ContractName, address: string, runner?: ContractRunner): Contract {
  return new Contract(address, loadArtifact(name).abi, runner);
}
