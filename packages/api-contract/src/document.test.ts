import { parse } from "yaml";
import { openApiYaml } from "./document";

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1, version 1, with the paths registered by the routes", () => {
    const doc = parse(openApiYaml());
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/healthz", "/v1/openapi.yaml", "/v1/hot-wallets", "/v1/sweeps", "/v1/sweeps/{id}"]));
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["HotWallet", "HotWalletList", "Sweep", "SweepList", "SweepRequest", "Authorization", "Error"]));
    expect(doc.paths["/healthz"].get.responses["204"]).toBeDefined();
  });
});

describe("the scalar components", () => {
  it("keep their own descriptions when a field describes itself further", () => {
    const doc = parse(openApiYaml());
    expect(doc.components.schemas.Address.description).toMatch(/^0x-hex address/);
    expect(doc.components.schemas.Amount.description).toMatch(/^an integer in the smallest unit/);
  });
});
