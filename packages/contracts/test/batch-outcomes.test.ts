import { Wallet, id, zeroPadValue } from "ethers";
import { SWEEP_ERROR_SELECTORS, decodeSweepOutcomes, sweepDelegateInterface, type LogLike } from "../src";

const delegate = Wallet.createRandom().address;
const account = Wallet.createRandom().address;
const other = Wallet.createRandom().address;

function pack(address: string, gas: bigint): bigint {
  return BigInt(address) | (gas << 160n);
}

function log(name: "Swept" | "SweepFailed", values: unknown[], address = delegate): LogLike {
  return { address, ...sweepDelegateInterface.encodeEventLog(name, values) };
}

describe("decodeSweepOutcomes", () => {
  test("decodes each item's outcome and gas, in order", () => {
    const logs = [
      log("Swept", [pack(account, 9_754n), 125_500_000n]),
      log("SweepFailed", [pack(other, 3_100n), SWEEP_ERROR_SELECTORS.Unauthorized]),
      log("SweepFailed", [pack(account, 300_000n), "0x00000000"]),
    ];
    expect(decodeSweepOutcomes(logs, delegate)).toEqual([
      { account, gasUsed: 9_754n, swept: true, amount: 125_500_000n },
      { account: other, gasUsed: 3_100n, swept: false, reason: "Unauthorized", selector: SWEEP_ERROR_SELECTORS.Unauthorized },
      { account, gasUsed: 300_000n, swept: false, reason: "reverted", selector: "0x00000000" },
    ]);
  });

  test("an error the delegate does not define is reported as reverted, with its selector", () => {
    const selector = id("TransfersDisabled()").slice(0, 10);
    const [outcome] = decodeSweepOutcomes([log("SweepFailed", [pack(account, 1n), selector])], delegate);
    expect(outcome).toMatchObject({ swept: false, reason: "reverted", selector });
  });

  test("skips logs of other contracts and other events, whatever the address's letter case", () => {
    const transfer = { address: delegate, topics: [id("Transfer(address,address,uint256)"), zeroPadValue(account, 32), zeroPadValue(other, 32)], data: zeroPadValue("0x01", 32) };
    const logs = [transfer, log("Swept", [pack(account, 1n), 5n], other), log("Swept", [pack(account, 2n), 6n], delegate.toLowerCase())];
    expect(decodeSweepOutcomes(logs, delegate)).toEqual([{ account, gasUsed: 2n, swept: true, amount: 6n }]);
  });

  test("rejects a sweep event with data of the wrong size", () => {
    const bad = { ...log("Swept", [pack(account, 1n), 5n]), data: "0x01" };
    expect(() => decodeSweepOutcomes([bad], delegate)).toThrow(/malformed/);
  });
});
