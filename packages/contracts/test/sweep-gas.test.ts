import { readFileSync } from "node:fs";
import path from "node:path";
import { ITEM_GAS_NEEDED } from "../src";

describe("ITEM_GAS_NEEDED", () => {
  it("is what SweepDelegate.sol requires before each item", () => {
    const source = readFileSync(path.join(__dirname, "..", "contracts", "SweepDelegate.sol"), "utf8");
    const itemGas = BigInt(/uint256 private constant ITEM_GAS = ([\d_]+);/.exec(source)![1]!.replaceAll("_", ""));
    expect(source).toContain("ITEM_GAS_NEEDED = ITEM_GAS + ITEM_GAS / 63 + 10_000;");
    expect(ITEM_GAS_NEEDED).toBe(itemGas + itemGas / 63n + 10_000n);
  });
});
