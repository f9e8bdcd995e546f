/**
 * The API's operations as the fuzzer needs them, read from the OpenAPI document the gateway serves:
 * a new endpoint, parameter or body field is fuzzed without touching the fuzzer.
 */

/** The part of JSON Schema the request schemas use. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  example?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
}

export interface Operation {
  method: string;
  /** the templated path, e.g. /v1/sweeps/{id} */
  path: string;
  pathParams: string[];
  query: Array<{ name: string; schema: JsonSchema }>;
  /** the JSON body's schema, $refs resolved; undefined when the operation takes none */
  body?: JsonSchema;
  needsKey: boolean;
}

interface Document {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, JsonSchema>; parameters?: Record<string, ParameterObject> };
  security?: unknown[];
}
interface ParameterObject {
  $ref?: string;
  name?: string;
  in?: string;
  schema?: JsonSchema;
}
interface OperationObject {
  parameters?: ParameterObject[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Every operation of the document, with its parameters and body schema resolved. */
export function operationsOf(document: unknown): Operation[] {
  const doc = document as Document;
  const resolveRef = (ref: string): unknown => ref.replace(/^#\//, "").split("/").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], doc);
  const schemaOf = (schema: JsonSchema, depth = 0): JsonSchema => {
    if (depth > 20) return {};
    const own = schema.$ref ? { ...(resolveRef(schema.$ref) as JsonSchema), ...withoutRef(schema) } : schema;
    return {
      ...own,
      ...(own.properties && { properties: Object.fromEntries(Object.entries(own.properties).map(([k, v]) => [k, schemaOf(v, depth + 1)])) }),
      ...(own.items && { items: schemaOf(own.items, depth + 1) }),
      ...(own.anyOf && { anyOf: own.anyOf.map((s) => schemaOf(s, depth + 1)) }),
      ...(own.oneOf && { oneOf: own.oneOf.map((s) => schemaOf(s, depth + 1)) }),
      ...(own.allOf && { allOf: own.allOf.map((s) => schemaOf(s, depth + 1)) }),
    };
  };
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => {
        const parameters = (operation.parameters ?? []).map((p) => (p.$ref ? (resolveRef(p.$ref) as ParameterObject) : p));
        const body = operation.requestBody?.content?.["application/json"]?.schema;
        const security = operation.security ?? doc.security ?? [];
        return {
          method: method.toUpperCase(),
          path,
          pathParams: parameters.filter((p) => p.in === "path").map((p) => p.name!),
          query: parameters.filter((p) => p.in === "query").map((p) => ({ name: p.name!, schema: schemaOf(p.schema ?? {}) })),
          body: body && schemaOf(body),
          needsKey: security.length > 0,
        };
      }),
  );
}

function withoutRef(schema: JsonSchema): JsonSchema {
  const { $ref: _ref, ...rest } = schema;
  return rest;
}
