import { ConfigError } from "@sweep/common";
import { factoryDeployment } from "./devnet-addresses";
import { DEFAULT_TX_FEE_CAP } from "@sweep/fees";
import { connectChains, describeChain, loadChainConfigs } from "./chain-config";

const problemsOf = (env: Record<string, string>, only?: number[]) => {
  try {
    loadChainConfigs("testnet", only, env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error("the configuration was accepted");
};

describe("per-chain configuration", () => {
  it("defaults every testnet chain to its local anvil, the deterministic factory, the default tariff and no treasury", () => {
    const chains = loadChainConfigs("testnet", undefined, {});
    expect(chains.map((c) => [c.chainId, c.rpcUrls, c.factory, c.treasury, c.tariff.rateBps])).toEqual([
      [11155111, ["http://127.0.0.1:8545"], factoryDeployment().address, null, 7000],
      [97, ["http://127.0.0.1:8546"], factoryDeployment().address, null, 7000],
    ]);
  });

  it("reads every variable of a served chain", () => {
    const env = {
      RPC_URL_97: "https://a.example/key1,https://b.example/key2",
      CONFIRMATIONS_97: "3",
      TOKEN_97_USDT: "0x55d398326f99059ff775485246999027b3197955",
      FACTORY_ADDRESS_97: "0x00000000000000000000000000000000000000f1",
      RATE_BPS_97: "6500",
      TREASURY_ADDRESS_97: "0x00000000000000000000000000000000000000aa",
      MAX_FEE_PER_GAS_97: "5000000000",
      MAX_PRIORITY_FEE_PER_GAS_97: "1000000000",
    };
    const [chain] = loadChainConfigs("testnet", [97], env);
    expect(chain).toMatchObject({
      chainId: 97,
      rpcUrls: ["https://a.example/key1", "https://b.example/key2"],
      confirmations: 3,
      tokens: [{ ticker: "USDT", decimals: 18, address: "0x55d398326f99059fF775485246999027B3197955" }],
      factory: "0x00000000000000000000000000000000000000f1",
      tariff: { rateBps: 6500 },
      treasury: "0x00000000000000000000000000000000000000AA",
      feeCeiling: { maxFeePerGas: 5_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n, configured: { maxFeePerGas: true, maxPriorityFeePerGas: true } },
    });
  });

  it("names every malformed variable at once, never echoing a value", () => {
    const problems = problemsOf({
      RPC_URL_97: "ftp://secret.example/key",
      CONFIRMATIONS_11155111: "many",
      TOKEN_97_USDT: "0x12",
      FACTORY_ADDRESS_97: "0x0000000000000000000000000000000000000000",
      RATE_BPS_97: "-1",
      CLASSIC_GAS_97_USDT: "50000",
      TREASURY_ADDRESS_11155111: "treasury",
      MAX_FEE_PER_GAS_97: "30 gwei",
      MAX_PRIORITY_FEE_PER_GAS_11155111: "0",
    });
    expect(problems).toEqual([
      "CONFIRMATIONS_11155111 must be a whole number of blocks from 0 to 1000, or finalized",
      "TOKEN_97_USDT must be a token contract's address (a valid checksum when mixed case)",
      "RATE_BPS_97 must be a whole number of basis points from 0 to 1000000",
      expect.stringMatching(/^CLASSIC_GAS_97_USDT takes <new>,<existing>/),
      "TREASURY_ADDRESS_11155111 must be an address other than the zero address (a valid checksum when mixed case)",
      "MAX_PRIORITY_FEE_PER_GAS_11155111 must be a whole number of wei above zero, in decimal digits",
      "RPC_URL_97: entry 1 (ftp://secret.example) must be http or https",
      "FACTORY_ADDRESS_97 must be an address other than the zero address (a valid checksum when mixed case)",
      "MAX_FEE_PER_GAS_97 must be a whole number of wei above zero, in decimal digits",
    ]);
    const text = problems.join("\n");
    expect(text).not.toContain("/key");
  });

  it("checks only the chains a process serves, and refuses a chain outside the environment", () => {
    expect(loadChainConfigs("testnet", [11155111], { RPC_URL_97: "nonsense" }).map((c) => c.chainId)).toEqual([11155111]);
    expect(problemsOf({}, [1])).toEqual(["CHAINS names 1, not a chain of the testnet environment (11155111, 97; ENV_CHAINS lists them)"]);
  });

  it("demands a real node on mainnet", () => {
    expect(() => loadChainConfigs("mainnet", undefined, {})).toThrow(/RPC_URL_1 is required.*RPC_URL_56 is required/);
  });

  describe("on mainnet, refuses a half-configured chain in one message naming every missing variable", () => {
    const complete: Record<string, string> = {
      RPC_URL_1: "https://eth.example/v3/secret-key",
      RPC_URL_56: "https://bsc.example/secret-key",
      CLASSIC_GAS_1_USDT: "63209,46109",
      CLASSIC_GAS_56_USDT: "55837,55837",
      MAX_FEE_PER_GAS_1: "60000000000",
      MAX_PRIORITY_FEE_PER_GAS_1: "2000000000",
      MAX_FEE_PER_GAS_56: "5000000000",
      MAX_PRIORITY_FEE_PER_GAS_56: "1000000000",
    };
    const mainnetProblems = (env: Record<string, string>, only?: number[]) => {
      try {
        loadChainConfigs("mainnet", only, env);
      } catch (err) {
        if (err instanceof ConfigError) return err.problems;
        throw err;
      }
      return [];
    };
    const without = (...names: string[]) => Object.fromEntries(Object.entries(complete).filter(([name]) => !names.includes(name)));

    it("accepts a complete configuration, with the chains' own confirmations and minimums", () => {
      const chains = loadChainConfigs("mainnet", undefined, complete);
      expect(chains.map((c) => [c.chainId, c.confirmations, c.minConfirmations])).toEqual([
        [1, 12, 6],
        [56, 15, 15],
      ]);
    });

    it.each<[string, Record<string, string>, string[]]>([
      ["classic gas", without("CLASSIC_GAS_1_USDT"), ["CLASSIC_GAS_1_USDT is required on mainnet: without the classic benchmark, USDT sweeps on chain 1 carry no fee"]],
      ["classic gas set empty", { ...complete, CLASSIC_GAS_56_USDT: "" }, ["CLASSIC_GAS_56_USDT is required on mainnet: without the classic benchmark, USDT sweeps on chain 56 carry no fee"]],
      ["the max fee", without("MAX_FEE_PER_GAS_56"), ["MAX_FEE_PER_GAS_56 is required on mainnet: the most a transaction on chain 56 may offer per gas, in wei"]],
      ["the tip ceiling", without("MAX_PRIORITY_FEE_PER_GAS_1"), ["MAX_PRIORITY_FEE_PER_GAS_1 is required on mainnet: the most tip per gas on chain 1, in wei"]],
      ["confirmations below Ethereum's minimum", { ...complete, CONFIRMATIONS_1: "5" }, ["CONFIRMATIONS_1 must be at least 6 on mainnet, chain 1's minimum"]],
      ["confirmations below BSC's minimum", { ...complete, CONFIRMATIONS_56: "14" }, ["CONFIRMATIONS_56 must be at least 15 on mainnet, chain 56's minimum"]],
      ["confirmations at the minimum", { ...complete, CONFIRMATIONS_1: "6", CONFIRMATIONS_56: "15" }, []],
      ["settling at the node's finalized block, past any minimum", { ...complete, CONFIRMATIONS_56: "finalized" }, []],
      ["a malformed value, named once as malformed", { ...complete, MAX_FEE_PER_GAS_1: "60 gwei" }, ["MAX_FEE_PER_GAS_1 must be a whole number of wei above zero, in decimal digits"]],
    ])("%s", (_case, env, expected) => {
      expect(mainnetProblems(env)).toEqual(expected);
    });

    it("names every gap of every served chain at once, never a value", () => {
      const problems = mainnetProblems({ RPC_URL_1: complete.RPC_URL_1!, RPC_URL_56: complete.RPC_URL_56!, CONFIRMATIONS_1: "2" });
      expect(problems.map((p) => p.split(" ")[0])).toEqual([
        "CLASSIC_GAS_1_USDT",
        "MAX_FEE_PER_GAS_1",
        "MAX_PRIORITY_FEE_PER_GAS_1",
        "CONFIRMATIONS_1",
        "CLASSIC_GAS_56_USDT",
        "MAX_FEE_PER_GAS_56",
        "MAX_PRIORITY_FEE_PER_GAS_56",
      ]);
      expect(problems.join("\n")).not.toMatch(/secret-key|\b2 /);
    });

    it("asks only the chains a process serves", () => {
      expect(mainnetProblems(without("CLASSIC_GAS_56_USDT", "MAX_FEE_PER_GAS_56"), [1])).toEqual([]);
    });

    it("asks nothing of this on testnet", () => {
      expect(loadChainConfigs("testnet", undefined, { CONFIRMATIONS_97: "0" }).map((c) => c.confirmations)).toEqual([1, 0]);
    });
  });

  it("describes a chain for the logs by its endpoints' hosts only", () => {
    const [chain] = connectChains(loadChainConfigs("testnet", [97], { RPC_URL_97: "https://bsc.example/v3/secret,http://127.0.0.1:8546" }), { timeoutMs: 1_000 });
    expect(describeChain(chain!)).toEqual({ chainId: 97, endpoints: ["https://bsc.example", "http://127.0.0.1:8546"], confirmations: 1, treasury: null });
    expect(chain!.endpoints.labels).toEqual(["bsc.example", "127.0.0.1:8546"]);
    chain!.provider.destroy();
  });
});

describe("TX_FEE_CAP_ in loadChainConfigs", () => {
  it("is read per served chain, and a bad one is named with the others", () => {
    const chains = loadChainConfigs("testnet", undefined, { TX_FEE_CAP_97: "100000000000000000" });
    expect(chains.map((c) => [c.chainId, c.txFeeCap])).toEqual([
      [11155111, DEFAULT_TX_FEE_CAP],
      [97, 100_000_000_000_000_000n],
    ]);
    expect(() => loadChainConfigs("testnet", [97], { TX_FEE_CAP_97: "-1" })).toThrow(ConfigError);
  });
});

describe("a chain added by configuration alone", () => {
  const acme = {
    ENV_CHAINS: "97,777001",
    CHAIN_NAME_777001: "Acme Chain",
    NATIVE_TICKER_777001: "ACME",
    CONFIRMATIONS_777001: "2",
    BLOCK_TIME_MS_777001: "1000",
    RPC_URL_777001: "https://acme.example/rpc",
    MAX_FEE_PER_GAS_777001: "3000000000",
    MAX_PRIORITY_FEE_PER_GAS_777001: "1000000000",
  };

  it("is served beside the presets, with the defaults every chain has (factory, tariff, fee cap)", () => {
    const chains = loadChainConfigs("testnet", undefined, acme);
    expect(chains.map((c) => c.chainId)).toEqual([97, 777001]);
    expect(chains[1]).toMatchObject({
      name: "Acme Chain",
      nativeTicker: "ACME",
      rpcUrls: ["https://acme.example/rpc"],
      factory: factoryDeployment().address,
      tariff: { rateBps: 7000 },
      txFeeCap: DEFAULT_TX_FEE_CAP,
      feeCeiling: { maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n },
    });
  });

  it.each([
    ["op-stack", 84532, { RPC_URL_84532: "https://base-sepolia.example" }],
    ["arbitrum", 421614, { RPC_URL_421614: "https://arbitrum-sepolia.example" }],
  ])("is served as an %s chain when FEE_MODEL_ says so, as that model's presets are", (feeModel, preset, presetRpc) => {
    const chains = loadChainConfigs("testnet", undefined, { ...acme, ...presetRpc, ENV_CHAINS: `97,${preset},777001`, FEE_MODEL_777001: feeModel });
    expect(chains.map((c) => [c.chainId, c.feeModel])).toEqual([
      [97, "l1"],
      [preset, feeModel],
      [777001, feeModel],
    ]);
  });

  it("must name its node and both fee ceilings: it has no devnet and no defaults", () => {
    const { RPC_URL_777001: _rpc, MAX_FEE_PER_GAS_777001: _fee, MAX_PRIORITY_FEE_PER_GAS_777001: _tip, ...bare } = acme;
    expect(problemsOf(bare)).toEqual([
      "RPC_URL_777001 is required: chain 777001 has no local devnet",
      "MAX_FEE_PER_GAS_777001 is required: chain 777001 has no default ceiling on the fee per gas, in wei",
      "MAX_PRIORITY_FEE_PER_GAS_777001 is required: chain 777001 has no default ceiling on the tip per gas, in wei",
    ]);
  });

  it("refuses a FEE_MODEL_ that contradicts a preset, even on a chain this process does not serve, naming it once", () => {
    expect(problemsOf({ ENV_CHAINS: "97,84532", FEE_MODEL_84532: "l1" }, [97])).toEqual(["FEE_MODEL_84532 is l1, but Base Sepolia charges as op-stack"]);
  });

  it("names a malformed ENV_CHAINS alone, without the gaps of chains it did not mean", () => {
    expect(problemsOf({ ENV_CHAINS: "97,777001,97" }, [777001])).toEqual(["ENV_CHAINS names chain 97 twice"]);
  });

  it("on mainnet, demands at least Ethereum's depth of a chain without a minimum of its own, and its ceilings once", () => {
    const env = { ENV_CHAINS: "1,777001", ...Object.fromEntries(Object.entries(acme).filter(([name]) => name.endsWith("_777001") && !name.startsWith("MAX_"))), RPC_URL_1: "https://eth.example", CLASSIC_GAS_1_USDT: "63209,46109", MAX_FEE_PER_GAS_1: "1", MAX_PRIORITY_FEE_PER_GAS_1: "1" };
    try {
      loadChainConfigs("mainnet", undefined, env);
      throw new Error("the configuration was accepted");
    } catch (err) {
      expect((err as ConfigError).problems).toEqual([
        "MAX_FEE_PER_GAS_777001 is required: chain 777001 has no default ceiling on the fee per gas, in wei",
        "MAX_PRIORITY_FEE_PER_GAS_777001 is required: chain 777001 has no default ceiling on the tip per gas, in wei",
        "CONFIRMATIONS_777001 must be at least 6 on mainnet, chain 777001's minimum",
      ]);
    }
  });
});
