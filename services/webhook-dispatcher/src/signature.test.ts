import { createHmac } from "node:crypto";
import { signatureHeader } from "./signature";

describe("the delivery signature", () => {
  const body = '{"id":"4f9c0a8e-2d6b-4b7e-9a55-0c1f3e2d4b6a","type":"webhook.test"}';

  it("signs `<t>.<body>` with the secret at the attempt's unix second", () => {
    const at = new Date("2026-03-01T12:00:00.900Z");
    const t = 1772366400;
    const expected = createHmac("sha256", "whsec_secret").update(`${t}.${body}`).digest("hex");
    expect(signatureHeader("whsec_secret", body, at)).toBe(`t=${t},v1=${expected}`);
  });

  it.each([
    ["another secret", "whsec_other", body, 0],
    ["another body", "whsec_secret", `${body} `, 0],
    ["another second", "whsec_secret", body, 1000],
  ])("changes with %s", (_what, secret, signedBody, laterMs) => {
    const at = new Date("2026-03-01T12:00:00.000Z");
    expect(signatureHeader(secret, signedBody, new Date(at.getTime() + laterMs))).not.toBe(signatureHeader("whsec_secret", body, at));
  });
});
