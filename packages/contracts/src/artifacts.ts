import fs from "node:fs";
import path from "node:path";
import type { InterfaceAbi } from "ethers";

export type ContractName = "SweepDelegate" | "DelegateFactory" | "DevToken" | "FalseReturningToken" | "RevertingToken" | "FeeOnTransferToken" | "FakeAmountDelegate";

export interface Artifact {
  abi: InterfaceAbi;
  /** creation code, 0x-hex */
  bytecode: string;
  /** runtime code, 0x-hex */
  deployedBytecode: string;
}

const artifactsDir = path.join(__dirname, "..", "artifacts");
const cache = new Map<ContractName, Artifact>();

/** The compiled contract written by build.ts (artifacts/ is not committed). */
export function loadArtifact(name: ContractName): Artifact {
  let artifact = cache.get(name);
  if (!artifact) {
    const file = path.join(artifactsDir, `${name}.json`);
    if (!fs.existsSync(file)) {
      throw new Error(`contract artifact ${name} is missing (${file}): run pnpm --filter @sweep/contracts build`);
    }
    artifact = JSON.parse(fs.readFileSync(file, "utf8")) as Artifact;
    cache.set(name, artifact);
  }
  return artifact;
}
