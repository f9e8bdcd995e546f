import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseAllDocuments, parse } from "yaml";
import { gatewayEnv } from "../services/api-gateway/src/config";
import { batcherEnv } from "../services/batcher/src/config";
import { chainSenderEnv } from "../services/chain-sender/src/config";
import { ledgerEnv } from "../services/ledger/src/config";
import { webhookDispatcherEnv } from "../services/webhook-dispatcher/src/config";

// No cluster runs in CI: the manifests are kept true to the code by reading them.
const root = path.resolve(__dirname, "..");
const base = path.join(root, "deploy", "base");
const schemas = {
  "api-gateway": gatewayEnv,
  batcher: batcherEnv,
  "chain-sender": chainSenderEnv,
  ledger: ledgerEnv,
  "webhook-dispatcher": webhookDispatcherEnv,
};

describe("deploy/base (kustomize)", () => {
  const kustomization = parse(readFileSync(path.join(base, "kustomization.yaml"), "utf8")) as { resources: string[] };

  it("lists a manifest for every service and every listed file exists", () => {
    for (const name of Object.keys(schemas)) expect(kustomization.resources).toContain(`${name}.yaml`);
    for (const file of kustomization.resources) expect(existsSync(path.join(base, file))).toBe(true);
  });

  it.each(Object.entries(schemas))("%s: runs its own main.ts, on the port its configuration reads, probed on /healthz", (name, schema) => {
    const docs = parseAllDocuments(readFileSync(path.join(base, `${name}.yaml`), "utf8")).map((d) => d.toJS());
    const deployment = docs.find((d) => d.kind === "Deployment");
    const container = deployment.spec.template.spec.containers[0];
    expect(existsSync(path.join(root, container.args[0]))).toBe(true);
    const known = Object.keys(schema.shape);
    for (const variable of container.env as Array<{ name: string; value: string }>) expect(known).toContain(variable.name);
    const portVariable = container.env.find((e: { name: string }) => e.name === "PORT" || e.name === "HEALTH_PORT");
    expect(container.ports[0].containerPort).toBe(Number(portVariable.value));
    expect(container.readinessProbe.httpGet.path).toBe("/healthz");
  });

  it("sets in the ConfigMap only variables some service reads", () => {
    const config = parse(readFileSync(path.join(base, "config.yaml"), "utf8")) as { data: Record<string, string> };
    const known = new Set(Object.values(schemas).flatMap((s) => Object.keys(s.shape)));
    for (const variable of Object.keys(config.data)) expect(known).toContain(variable);
  });
});
