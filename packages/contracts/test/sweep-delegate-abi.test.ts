import { Interface, id } from "ethers";
import { SWEEP_DELEGATE_ABI, SWEEP_ERROR_SELECTORS, loadArtifact, sweepFailureReason } from "../src";

describe("SweepDelegate ABI", () => {
  test("the written-out ABI is the compiled one", () => {
    const format = (abi: Interface) => abi.format().slice().sort();
    expect(format(new Interface(SWEEP_DELEGATE_ABI))).toEqual(format(new Interface(loadArtifact("SweepDelegate").abi)));
  });

  test("error selectors and the reasons they map to", () => {
    expect(SWEEP_ERROR_SELECTORS).toEqual({
      Unauthorized: id("Unauthorized()").slice(0, 10),
      NothingToSweep: id("NothingToSweep()").slice(0, 10),
      TokenTransferFailed: id("TokenTransferFailed()").slice(0, 10),
      NativeTransferFailed: id("NativeTransferFailed()").slice(0, 10),
    });
    expect(sweepFailureReason(SWEEP_ERROR_SELECTORS.NothingToSweep.toUpperCase().replace("0X", "0x"))).toBe("NothingToSweep");
    expect(sweepFailureReason("0x00000000")).toBe("reverted");
    expect(sweepFailureReason(id("SomethingElse()").slice(0, 10))).toBe("reverted");
  });
});
