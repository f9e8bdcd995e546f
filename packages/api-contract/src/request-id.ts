import { registry } from "./registry";
import { z } from "./zod";

/** The header that names a request in the API's answer and in its log lines. */
export const REQUEST_ID_HEADER = "X-Request-Id";

// Safe as it is in a header and a log line, and room for a UUID, a trace id or a proxy's own format.
export const RequestId = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/);

registry.registerParameter(
  "RequestId",
  RequestId.optional().openapi({
    param: { name: REQUEST_ID_HEADER, in: "header" },
    description:
      "Your own id for this request (1 to 128 of A-Z a-z 0-9 . _ : -). It is answered back and logged with the request, so support can find it; one that is missing or malformed is replaced by a new req_… id.",
  }),
);

registry.registerComponent("headers", "RequestId", {
  description: "The request's id: yours when you sent a well-formed X-Request-Id, otherwise a new req_… id. Quote it when you contact support.",
  schema: { type: "string" },
});

type Operation = { parameters?: unknown[]; responses?: Record<string, { headers?: Record<string, unknown> }> };

/** Every operation takes X-Request-Id and answers it: the gateway's first middleware does so for every route. */
export function withRequestId<D extends { paths?: object }>(doc: D): D {
  for (const pathItem of Object.values(doc.paths ?? {}) as Array<Record<string, Operation>>) {
    for (const operation of Object.values(pathItem)) {
      operation.parameters = [...(operation.parameters ?? []), { $ref: "#/components/parameters/RequestId" }];
      for (const response of Object.values(operation.responses ?? {})) {
        response.headers = { ...response.headers, [REQUEST_ID_HEADER]: { $ref: "#/components/headers/RequestId" } };
      }
    }
  }
  return doc;
}
