import type { Authorization } from "ethers";

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
