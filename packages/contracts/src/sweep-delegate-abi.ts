import { Interface } from "ethers";

/**
 * The delegate's interface, written out so that encoding and decoding need no build; a test
 * checks it against the compiled artifact.
 */
export const SWEEP_DELEGATE_ABI = [
  "constructor(address hotWallet_, address operator_)",
  "error Unauthorized()",
  "error NothingToSweep()",
  "error TokenTransferFailed()",
  "error NativeTransferFailed()",
  "error BatchGasTooLow()",
  "event Swept(uint256 accountAndGas, uint256 amount)",
  "event SweepFailed(uint256 accountAndGas, bytes4 selector)",
  "function hotWallet() view returns (address)",
  "function operator() view returns (address)",
  "function self() view returns (address)",
  "function sweepBatch(bytes items)",
  "function sweepAccount(address token, uint256 amount, bool keepOneUnit) returns (uint256)",
  "function sweepAccountReceived(address token, uint256 amount, bool keepOneUnit) returns (uint256)",
  "receive() payable",
] as const;

export const sweepDelegateInterface = new Interface(SWEEP_DELEGATE_ABI);
