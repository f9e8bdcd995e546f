import { literalHostProblem } from "@sweep/public-address";

/**
 * PUT /v1/webhook's check of a URL, by its text alone: an https URL with a host and no
 * credentials, whose host is not a literal non-public address. Names are not resolved here: what
 * a name resolves to can change, so the dispatcher checks the addresses at every attempt.
 * Returns why the URL is refused (finishing a message that starts with "url"), or null.
 * Two switches for local development only, apart: `allowPrivate` (WEBHOOK_ALLOW_PRIVATE) accepts
 * private and loopback hosts, `allowHttp` (WEBHOOK_ALLOW_HTTP) accepts http: (a receiver on the
 * developer's machine has no certificate a dispatcher would trust). Without the second, http: is the
 * spec's 422 invalid_url whatever the first says.
 */
export function webhookUrlProblem(url: string, options: { allowPrivate?: boolean; allowHttp?: boolean } = {}): string | null {
  // URL would silently drop these; the URL stored is the one sent, so it must parse as it reads.
  if (/\s/.test(url) || [...url].some(isControl)) return "must not contain spaces or control characters";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be an absolute https URL";
  }
  if (parsed.protocol !== "https:" && !(options.allowHttp && parsed.protocol === "http:")) return "must use https";
  if (parsed.username !== "" || parsed.password !== "") return "must not carry credentials";
  if (parsed.hostname === "") return "must name a host";
  const hostProblem = options.allowPrivate ? null : literalHostProblem(parsed.hostname);
  return hostProblem === null ? null : `host ${parsed.hostname} ${hostProblem}; only public https addresses are allowed`;
}

function isControl(character: string): boolean {
  const code = character.codePointAt(0)!;
  return code < 0x20 || code === 0x7f;
}
