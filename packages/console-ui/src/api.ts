import createClient from "openapi-fetch";
import type { components, paths } from "@sweep/client/src/generated/openapi";
import { ApiFailure, failureFromBody, failureOf } from "./api-error";

export type Schemas = components["schemas"];

/** The console's session, as GET /console/api/session answers it. */
export interface Session {
  user: { id: string; email: string };
  partner: { id: string; name: string; environment: string; disabled: boolean };
  csrf_token: string;
}

/** An API key as the console lists it; the whole key only in the answer that created it. */
export interface ConsoleKey {
  id: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
  created_at: string;
}

let sessionCsrfToken = "";

/** Every change the console makes carries the session's CSRF token (the gateway refuses it otherwise). */
export function setCsrfToken(token: string): void {
  sessionCsrfToken = token;
}


function isChange(method: string): boolean {
  return !["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase());
}

/**
 * The /v1 API, typed from the OpenAPI document @sweep/client generates, so the pages cannot drift from it.
 * Same origin: the session cookie authenticates, as the contract says the gateway accepts in place of a key.
 */
export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: "same-origin" });
api.use({
  onRequest({ request }) {
    if (isChange(request.method)) request.headers.set("X-CSRF-Token", sessionCsrfToken);
    return request;
  },
});

/** The data of an openapi-fetch answer, or the API's failure thrown (openapi-fetch has read the body into `error`). */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) throw failureFromBody(response, error);
  return data as T;
}

/** The console's own endpoints (/console/api/*), which are not part of the public API document. */
export async function consoleCall<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (isChange(method)) {
    headers["Content-Type"] = "application/json";
    headers["X-CSRF-Token"] = sessionCsrfToken;
  }
  const response = await fetch(`/console/api${path}`, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await failureOf(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

export { ApiFailure };
