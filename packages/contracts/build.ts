/**
 * Compiles contracts/ with solc from npm and writes artifacts/<Name>.json ({abi, bytecode,
 * deployedBytecode}). Skips the compiler when the sources, compiler and settings are those of
 * the last build, so running it before every test costs nothing.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const root = __dirname;
const artifactsDir = path.join(root, "artifacts");
const stampFile = path.join(artifactsDir, ".build-stamp");

const settings = {
  evmVersion: "prague",
  // Many runs: a delegate is deployed once per hot wallet and then called for every sweep.
  optimizer: { enabled: true, runs: 1_000_000 },
  // No metadata hash: the delegate's address (CREATE2 over its bytecode) then changes with its
  // code, not with comments or file paths.
  metadata: { bytecodeHash: "none", appendCBOR: false },
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
};

interface SolcOutput {
  errors?: { severity: "error" | "warning" | "info"; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
}

function solidityFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return solidityFiles(full);
      return entry.name.endsWith(".sol") ? [full] : [];
    })
    .sort();
}

function packageVersion(name: string): string {
  const manifest = require.resolve(`${name}/package.json`, { paths: [root] });
  return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version;
}

/** Imports outside contracts/ (OpenZeppelin) come from node_modules. */
function findImport(importPath: string): { contents: string } | { error: string } {
  try {
    return { contents: fs.readFileSync(require.resolve(importPath, { paths: [root] }), "utf8") };
  } catch {
    return { error: `not found: ${importPath}` };
  }
}

async function build(): Promise<void> {
  const sources: Record<string, { content: string }> = {};
  for (const file of solidityFiles(path.join(root, "contracts"))) {
    sources[path.relative(root, file).split(path.sep).join("/")] = { content: fs.readFileSync(file, "utf8") };
  }
  const input = JSON.stringify({ language: "Solidity", sources, settings });
  const versions = ["solc", "@openzeppelin/contracts"].map(packageVersion).join("\n");
  const stamp = createHash("sha256").update(`${versions}\n${input}`).digest("hex");
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, "utf8") === stamp) {
    console.log("contracts: artifacts up to date");
    return;
  }

  // Loaded only when compiling: the WebAssembly compiler takes seconds to start.
  const solc = (await import("solc")).default;
  const output = JSON.parse(solc.compile(input, { import: findImport })) as SolcOutput;
  const problems = output.errors ?? [];
  for (const problem of problems) console.error(problem.formattedMessage);
  if (problems.some((p) => p.severity === "error")) {
    console.error("contracts: compilation failed");
    process.exit(1);
  }

  fs.rmSync(artifactsDir, { recursive: true, force: true });
  fs.mkdirSync(artifactsDir, { recursive: true });
  for (const sourceName of Object.keys(sources)) {
    for (const [name, contract] of Object.entries(output.contracts[sourceName] ?? {})) {
      const artifact = {
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
        deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
      };
      fs.writeFileSync(path.join(artifactsDir, `${name}.json`), `${JSON.stringify(artifact, null, 2)}\n`);
    }
  }
  // Written last: an interrupted build leaves no stamp and is redone.
  fs.writeFileSync(stampFile, stamp);
  console.log(`contracts: compiled ${Object.keys(sources).length} sources into ${path.relative(process.cwd(), artifactsDir) || "."}`);
}

build().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
