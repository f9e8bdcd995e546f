import { parse } from "yaml";
import { openApiYaml } from "./document";

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1, version 1, with the paths registered by the routes", () => {
    const doc = parse(openApiYaml());
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/healthz", "/v1/openapi.yaml", "/v1/balance", "/v1/tariff", "/v1/settings", "/v1/ledger", "/v1/usage", "/v1/hot-wallets", "/v1/sweeps", "/v1/sweeps/{id}"]),
    );
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(["HotWallet", "HotWalletList", "Sweep", "SweepList", "SweepRequest", "Authorization", "Error", "Balance", "ChainTariff", "Tariff", "Settings", "SettingsPatch", "LedgerEntry", "LedgerKind", "LedgerList", "UsageDay", "Usage"]),
    );
    expect(doc.paths["/healthz"].get.responses["204"]).toBeDefined();
  });
});

describe("security", () => {
  const doc = parse(openApiYaml());
  const PUBLIC = ["get /healthz", "get /v1/openapi.yaml"];
  // What a client must send for each operation: its own list, or the document's when it has none.
  const cases = Object.entries(doc.paths as Record<string, Record<string, { security?: unknown[] }>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ name: `${method} ${path}`, own: operation.security, effective: operation.security ?? doc.security })),
  );

  it("requires a bearer key by default", () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual([{ bearer: [] }]);
  });

  it("overrides it with an empty list on the public operations only", () => {
    expect(cases.length).toBeGreaterThan(15);
    expect(cases.filter((c) => PUBLIC.includes(c.name)).map((c) => c.name).sort()).toEqual([...PUBLIC].sort());
    for (const { name, own, effective } of cases) {
      if (PUBLIC.includes(name)) expect({ name, security: own }).toEqual({ name, security: [] });
      else expect({ name, security: effective }).toEqual({ name, security: [{ bearer: [] }] });
    }
  });
});

describe("the scalar components", () => {
  it("keep their own descriptions when a field describes itself further", () => {
    const doc = parse(openApiYaml());
    expect(doc.components.schemas.Address.description).toMatch(/^0x-hex address/);
    expect(doc.components.schemas.Amount.description).toMatch(/^an integer in the smallest unit/);
  });
});

describe("the money endpoints", () => {
  const doc = parse(openApiYaml());

  it("document every nullable field of a ledger entry as required", () => {
    const entry = doc.components.schemas.LedgerEntry;
    expect(entry.required).toEqual(["id", "chain_id", "kind", "amount", "tx_hash", "sweep_id", "note", "created_at", "balance_after", "paid_for"]);
    expect(entry.properties.tx_hash.type).toEqual(["string", "null"]);
    expect(entry.properties.kind).toEqual({ $ref: "#/components/schemas/LedgerKind" });
  });

  it("document balance and available as optional, the fee figures as required", () => {
    const line = doc.components.schemas.Balance.properties.chains.items;
    expect(line.required).toEqual(["chain_id", "name", "native", "fees_accrued", "fees_withdrawn", "fees_due"]);
  });

  it("document the queries of the ledger and of usage with their ranges", () => {
    const parameters = (path: string) => Object.fromEntries((doc.paths[path].get.parameters as Array<{ name: string; in?: string; schema: object }>).filter((p) => p.in === "query").map((p) => [p.name, p.schema]));
    expect(Object.keys(parameters("/v1/ledger"))).toEqual(["limit", "cursor", "chain_id", "kind", "created_after", "created_before"]);
    expect(Object.keys(parameters("/v1/ledger/summary"))).toEqual(["chain_id", "created_after", "created_before"]);
    expect(parameters("/v1/usage")).toEqual({ days: expect.objectContaining({ type: "integer", minimum: 1, maximum: 90, default: 30 }), chain_id: expect.objectContaining({ type: "integer" }) });
  });

  it("document PATCH /v1/settings with a body that refuses unknown fields", () => {
    expect(doc.components.schemas.SettingsPatch.additionalProperties).toBe(false);
    expect(Object.keys(doc.paths["/v1/settings"])).toEqual(["get", "patch"]);
  });
});

describe("the webhook endpoints", () => {
  const doc = parse(openApiYaml());

  it("document every operation of the webhook", () => {
    expect(Object.keys(doc.paths["/v1/webhook"]).sort()).toEqual(["delete", "get", "put"]);
    expect(Object.keys(doc.paths["/v1/webhook/deliveries"])).toEqual(["get"]);
    expect(Object.keys(doc.paths["/v1/webhook/test"])).toEqual(["post"]);
    expect(doc.paths["/v1/webhook/test"].post.requestBody).toBeUndefined();
    expect(Object.keys(doc.paths["/v1/webhook/deliveries/{id}/resend"])).toEqual(["post"]);
    expect(doc.paths["/v1/webhook/deliveries/{id}/resend"].post.requestBody).toBeUndefined();
    expect(Object.keys(doc.paths["/v1/webhook"].delete.responses)).toEqual(expect.arrayContaining(["204", "404"]));
  });

  it("document a strict PUT body with the URL's length", () => {
    const body = doc.components.schemas.WebhookRequest;
    expect(body.additionalProperties).toBe(false);
    expect(body.required).toEqual(["url"]);
    expect(body.properties.url).toMatchObject({ type: "string", format: "uri", maxLength: 2048 });
    expect(body.properties.low_balance.items.additionalProperties).toBe(false);
  });

  it("document every field of Webhook and WebhookDelivery as required, the nullable ones as null-able", () => {
    expect(doc.components.schemas.Webhook.required).toEqual(["url", "secret", "low_balance"]);
    const delivery = doc.components.schemas.WebhookDelivery;
    expect(delivery.required).toEqual(["id", "event", "status", "attempts", "last_status_code", "last_error", "created_at", "delivered_at", "next_attempt_at"]);
    for (const field of ["last_status_code", "last_error", "delivered_at", "next_attempt_at"]) expect(delivery.properties[field].type).toContain("null");
  });
});

describe("X-Request-Id", () => {
  const doc = parse(openApiYaml());
  const operations = Object.entries(doc.paths as Record<string, Record<string, { parameters?: Array<{ $ref?: string }>; responses: Record<string, { headers?: Record<string, unknown> }> }>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ name: `${method} ${path}`, operation })),
  );

  it("is a header every operation takes and every response answers", () => {
    expect(operations.length).toBeGreaterThan(15);
    for (const { name, operation } of operations) {
      expect({ name, parameters: operation.parameters }).toEqual({ name, parameters: expect.arrayContaining([{ $ref: "#/components/parameters/RequestId" }]) });
      for (const [status, response] of Object.entries(operation.responses)) {
        expect({ name, status, header: response.headers?.["X-Request-Id"] }).toEqual({ name, status, header: { $ref: "#/components/headers/RequestId" } });
      }
    }
  });

  it("is documented once, with the form the gateway keeps", () => {
    expect(doc.components.parameters.RequestId).toMatchObject({ name: "X-Request-Id", in: "header", required: false, schema: { $ref: "#/components/schemas/RequestId" } });
    expect(doc.components.schemas.RequestId).toMatchObject({ type: "string", pattern: "^[A-Za-z0-9._:-]{1,128}$" });
    expect(doc.components.headers.RequestId.schema).toEqual({ type: "string" });
  });
});

describe("the webhooks", () => {
  const doc = parse(openApiYaml());

  it.each([
    ["sweep.swept", "SweepEvent"],
    ["sweep.rejected", "SweepEvent"],
    ["revocation.revoked", "RevocationEvent"],
    ["hot_wallet.failed", "HotWalletEvent"],
    ["balance.low", "BalanceLowEvent"],
    ["webhook.test", "WebhookTestEvent"],
    ["deposit_address.delegation_changed", "DelegationChangedEvent"],
    ["deposit_address.activity", "DepositAddressActivityEvent"],
    ["deposit.detected", "DepositEvent"],
  ])("document %s, signed and not keyed, with its body %s", (type, body) => {
    const post = doc.webhooks[type].post;
    expect(post.security).toEqual([]);
    expect(post.requestBody.content["application/json"].schema).toEqual({ $ref: `#/components/schemas/${body}` });
    expect(post.parameters.filter((p: { in: string }) => p.in === "header").map((p: { name: string }) => p.name)).toEqual(["Service-Signature", "Service-Event", "Service-Delivery"]);
  });

  it("give each event its type and data, and the union of them all", () => {
    const sweepEvent = doc.components.schemas.SweepEvent;
    expect(sweepEvent.required).toEqual(["id", "type", "created_at", "data"]);
    expect(sweepEvent.properties.type.enum).toEqual(["sweep.swept", "sweep.failed", "sweep.rejected"]);
    expect(sweepEvent.properties.data).toEqual({ $ref: "#/components/schemas/Sweep" });
    expect(doc.components.schemas.Event.anyOf).toHaveLength(8);
  });
});

describe("for generators", () => {
  const doc = parse(openApiYaml());
  const operations = [...Object.values(doc.paths), ...Object.values(doc.webhooks)].flatMap((item) => Object.values(item as Record<string, { operationId?: string }>));

  it("names every operation, each once", () => {
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths["/v1/sweeps"].post.operationId).toBe("createSweep");
  });

  it("writes a described field of a shared type as a reference with its description, never an allOf", () => {
    expect(JSON.stringify(doc)).not.toContain("allOf");
    expect(doc.components.schemas.Sweep.properties.account).toEqual({ $ref: "#/components/schemas/Address", description: "deposit address" });
  });
});
