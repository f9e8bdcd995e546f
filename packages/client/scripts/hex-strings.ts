/**
 * How the generated types spell the API's hex strings: a string schema whose pattern starts with
 * `^0x` (addresses, transaction hashes, signature words) is `0x${string}` where the client receives
 * it (responses, webhooks), so viem and ethers take it without a cast; where the client sends it
 * (request bodies and parameters) it stays a plain string, so a partner's address from ethers or a
 * database needs no cast either: the API validates it.
 */
import ts from "typescript";
import { NULL, tsUnion, type OpenAPI3, type SchemaObject } from "openapi-typescript";

type Json = Record<string, unknown>;

const HEX = ts.factory.createTemplateLiteralType(ts.factory.createTemplateHead("0x"), [
  ts.factory.createTemplateLiteralTypeSpan(ts.factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword), ts.factory.createTemplateTail("")),
]);

function isHexString(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  const { type, pattern } = schema as Json;
  const types = Array.isArray(type) ? type : [type];
  return types.includes("string") && typeof pattern === "string" && pattern.startsWith("^0x");
}

/** openapi-typescript's `transform`: `0x${string}` (or `| null`) for a hex string schema. */
export function hexStringType(schema: SchemaObject): ts.TypeNode | undefined {
  if (!isHexString(schema)) return undefined;
  return Array.isArray(schema.type) && schema.type.includes("null") ? tsUnion([HEX, NULL]) : HEX;
}

/**
 * The document with what the client sends typed as plain strings: in request bodies, parameters and
 * the components only they use, a hex string loses its pattern and a reference to a hex component
 * (Address, which responses use too) becomes a string of its own. A copy: the document is not changed.
 */
export function withSentHexAsStrings(document: OpenAPI3): OpenAPI3 {
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  const operations = Object.values(document.paths ?? {}).flatMap((item) => Object.entries(item as Json));
  const sent = operations.flatMap(([key, operation]) => (key === "parameters" ? [operation] : [(operation as Json).requestBody, (operation as Json).parameters]));
  const received = [...operations.map(([key, operation]) => (key === "parameters" ? undefined : (operation as Json).responses)), document.webhooks];
  const receivedComponents = referencedComponents(received, schemas);
  const sentOnly = [...referencedComponents(sent, schemas)].filter((name) => !receivedComponents.has(name));

  const loosen = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(loosen);
    if (typeof node !== "object" || node === null) return node;
    const { $ref, description } = node as Json;
    const target = typeof $ref === "string" ? schemas[componentName($ref)] : undefined;
    if (isHexString(target)) return { type: "string", description: description ?? (target as Json).description };
    if (isHexString(node)) return Object.fromEntries(Object.entries(node).filter(([key]) => key !== "pattern"));
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, loosen(value)]));
  };
  const sentParts = (key: string, operation: unknown) => {
    if (key === "parameters") return loosen(operation);
    if (typeof operation !== "object" || operation === null) return operation;
    return Object.fromEntries(Object.entries(operation).map(([part, value]) => [part, part === "requestBody" || part === "parameters" ? loosen(value) : value]));
  };

  const paths = Object.fromEntries(Object.entries(document.paths ?? {}).map(([path, item]) => [path, Object.fromEntries(Object.entries(item as Json).map(([key, operation]) => [key, sentParts(key, operation)]))]));
  const components = { ...document.components, schemas: { ...schemas, ...Object.fromEntries(sentOnly.map((name) => [name, loosen(schemas[name])])) } };
  return { ...document, paths, components } as OpenAPI3;
}

function componentName(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

/** The schema components these nodes refer to, directly or through other components. */
function referencedComponents(nodes: unknown[], schemas: Record<string, unknown>): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== "object" || node === null) return;
    const { $ref } = node as Json;
    if (typeof $ref === "string" && $ref.startsWith("#/components/schemas/") && !found.has(componentName($ref))) {
      found.add(componentName($ref));
      visit(schemas[componentName($ref)]);
    }
    Object.values(node).forEach(visit);
  };
  nodes.forEach(visit);
  return found;
}
