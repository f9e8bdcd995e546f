/**
 * zod-to-openapi writes a field that describes a shared schema further as
 * `allOf: [{$ref}, {description}]`. OpenAPI 3.1 lets a reference carry its own description
 * (`{$ref, description}`, which overrides the component's), and generators read that as the
 * component itself, where some (openapi-python-client) refuse an allOf of a non-object. Rewrites
 * the document in place and returns it.
 */
export function withDescribedReferences<D>(doc: D): D {
  rewrite(doc);
  return doc;
}

function rewrite(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(rewrite);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  const schema = node as Record<string, unknown>;
  const reference = describedReference(schema.allOf);
  if (reference) {
    delete schema.allOf;
    Object.assign(schema, reference);
  }
  Object.values(schema).forEach(rewrite);
}

/** `{$ref, description}` when `allOf` is exactly one bare reference and one bare description. */
function describedReference(allOf: unknown): { $ref: string; description: string } | undefined {
  if (!Array.isArray(allOf) || allOf.length !== 2) return undefined;
  const [reference, described] = allOf as [Record<string, unknown>, Record<string, unknown>];
  const only = (object: Record<string, unknown>, key: string) => typeof object === "object" && object !== null && Object.keys(object).length === 1 && typeof object[key] === "string";
  return only(reference, "$ref") && only(described, "description") ? { $ref: reference.$ref as string, description: described.description as string } : undefined;
}
