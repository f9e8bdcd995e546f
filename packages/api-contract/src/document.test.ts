import { parse } from "yaml";
import { openApiYaml } from "./document";

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1, version 1, with the paths registered by the routes", () => {
    const doc = parse(openApiYaml());
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/healthz", "/v1/openapi.yaml"]));
    expect(doc.paths["/healthz"].get.responses["204"]).toBeDefined();
  });
});
