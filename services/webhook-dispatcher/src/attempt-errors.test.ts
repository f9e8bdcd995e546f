import { attemptErrorOf } from "./attempt-errors";

const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

describe("the last_error of an attempt without an answer", () => {
  it.each([
    ["a request aborted by its deadline", Object.assign(new Error("The operation was aborted"), { name: "AbortError", code: "ABORT_ERR" }), "timeout"],
    ["AbortSignal.timeout's reason", new DOMException("timed out", "TimeoutError"), "timeout"],
    ["ETIMEDOUT", coded("ETIMEDOUT"), "timeout"],
    ["undici's connect timeout", coded("UND_ERR_CONNECT_TIMEOUT"), "timeout"],
    ["ECONNREFUSED", coded("ECONNREFUSED"), "connection refused"],
    ["ECONNRESET", coded("ECONNRESET", "read ECONNRESET"), "connection reset"],
    ["socket hang up (Node's https)", coded("ECONNRESET", "socket hang up"), "connection closed"],
    ["undici's closed socket", coded("UND_ERR_SOCKET", "other side closed"), "connection closed"],
    ["ENOTFOUND", coded("ENOTFOUND", "getaddrinfo ENOTFOUND example.invalid"), "DNS lookup failed"],
    ["EAI_AGAIN", coded("EAI_AGAIN"), "DNS lookup failed"],
    ["a self-signed certificate", coded("DEPTH_ZERO_SELF_SIGNED_CERT"), "TLS error"],
    ["an unknown issuer", coded("UNABLE_TO_VERIFY_LEAF_SIGNATURE"), "TLS error"],
    ["an expired certificate", coded("CERT_HAS_EXPIRED"), "TLS error"],
    ["a certificate for another host", coded("ERR_TLS_CERT_ALTNAME_INVALID"), "TLS error"],
    ["an OpenSSL protocol error", coded("ERR_SSL_WRONG_VERSION_NUMBER"), "TLS error"],
    ["fetch's TypeError with its cause", Object.assign(new TypeError("fetch failed"), { cause: coded("ECONNREFUSED") }), "connection refused"],
    ["EHOSTUNREACH", coded("EHOSTUNREACH"), "connection failed"],
    ["ENETUNREACH", coded("ENETUNREACH"), "connection failed"],
    ["an error without a code", new Error("something else"), "connection failed"],
    ["not an error at all", "oops", "connection failed"],
  ])("%s → %s", (_what, err, expected) => {
    expect(attemptErrorOf(err)).toBe(expected);
  });
});
