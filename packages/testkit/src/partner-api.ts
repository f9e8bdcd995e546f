import type { Authorization } from "ethers";
import { eventually } from "./stack";

/** A partner's calls to the API as a test makes them: JSON in, status and parsed body out. */
export function partnerApi(base: () => string, auth: () => { Authorization: string }) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(base() + path, {
      method,
      headers: { ...auth(), "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked by each test's assertions
    return { status: res.status, body: (res.status === 204 ? undefined : await res.json()) as any };
  };
}

export type PartnerApi = ReturnType<typeof partnerApi>;

/** The spec's final statuses of a sweep and of a revocation. */
const FINAL_STATUSES = { "/v1/sweeps": ["swept", "failed", "rejected"], "/v1/revocations": ["revoked", "failed", "rejected"] } as const;

/** A sweep's or a revocation's body once it reached a final status, read through the API. */
export function untilEnded<T extends { status: string } = { status: string }>(api: PartnerApi, path: keyof typeof FINAL_STATUSES, id: string, timeoutMs = 90_000, intervalMs = 500): Promise<T> {
  const final: readonly string[] = FINAL_STATUSES[path];
  return eventually(
    `${path} ${id} to end`,
    async () => {
      const body = (await api("GET", `${path}/${id}`)).body as T;
      return final.includes(body.status) ? body : undefined;
    },
    timeoutMs,
    intervalMs,
  );
}

/** An ethers-signed EIP-7702 authorization in the API's shape. */
export function authorizationBody(auth: Authorization) {
  return {
    chain_id: Number(auth.chainId),
    address: auth.address,
    nonce: Number(auth.nonce),
    y_parity: auth.signature.yParity,
    r: auth.signature.r,
    s: auth.signature.s,
  };
}
