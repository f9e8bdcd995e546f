import { slotLabelled } from "./token-slot";

const labels: Record<number, string | Error> = {
  1: "other-token                     ",
  2: new Error("CKR_GENERAL_ERROR"),
  3: "sweep-gas                       ",
  4: new Error("C_GetTokenInfo: CKR_TOKEN_NOT_PRESENT"),
};
const readLabel = (slot: number) => {
  const label = labels[slot]!;
  if (label instanceof Error) throw label;
  return label;
};

describe("finding the token's slot", () => {
  it.each([
    ["past an unreadable slot", [1, 2, 3], 3],
    ["the first match, padding trimmed", [3, 1], 3],
  ])("finds it %s", (_case, slots, expected) => {
    expect(slotLabelled(slots, readLabel, "sweep-gas", "/lib/hsm.so")).toBe(expected);
  });

  it.each([
    [[1], /^PKCS11_TOKEN_LABEL: no token labelled "sweep-gas" in \/lib\/hsm\.so$/],
    [[1, 2, 4, 2], /^PKCS11_TOKEN_LABEL: no token labelled "sweep-gas" in \/lib\/hsm\.so \(3 slot\(s\) could not be read: CKR_GENERAL_ERROR, CKR_TOKEN_NOT_PRESENT\)$/],
  ])("without it in slots %j, says so and names the slots it could not read", (slots, message) => {
    expect(() => slotLabelled(slots, readLabel, "sweep-gas", "/lib/hsm.so")).toThrow(message);
  });
});
