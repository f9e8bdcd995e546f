import { OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { stringify } from "yaml";
import { withDescribedReferences } from "./described-references";
import { registry, webhookRegistry } from "./registry";
import { withRequestId } from "./request-id";
import "./routes/health";
import "./routes/balance";
import "./routes/tariff";
import "./routes/settings";
import "./routes/ledger";
import "./routes/usage";
import "./routes/hot-wallets";
import "./routes/sweeps";
import "./routes/revocations";
import "./routes/deposit-addresses";
import "./routes/sweep-policies";
import "./routes/webhook";
import "./routes/events";
import "./routes/requests";

/** The OpenAPI 3.1 document of API version 1, generated from the same schemas that validate requests. */
export function openApiDocument(serverUrl?: string) {
  const info = { title: "Gas-Sponsored Sweep Service", version: "1", description: "Sweeps deposit addresses into hot wallets through EIP-7702 delegation, gas paid in batches by the partner's gas wallet." };
  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info,
    servers: serverUrl ? [{ url: serverUrl }] : [],
    security: [{ bearer: [] }],
  });
  // zod-to-openapi generates webhooks before everything else, so a field that describes a scalar
  // further (a sweep's `amount`) would become the scalar's component: they come from a run of their
  // own, which refers to the components of the first.
  const { webhooks } = new OpenApiGeneratorV31([...registry.definitions, ...webhookRegistry.definitions]).generateDocument({ openapi: "3.1.0", info });
  return withDescribedReferences(withRequestId({ ...doc, webhooks }));
}

export function openApiYaml(serverUrl?: string): string {
  return stringify(openApiDocument(serverUrl), { aliasDuplicateObjects: false });
}
