/**
 * RPC URLs carry secrets: a hosted provider's key sits in the path (`/v3/<key>`) or the query, and
 * some put credentials before the host. Only the scheme and host:port of a URL ever reach a log
 * line, an error message or a metric label.
 */
export function redactRpcUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return "(malformed URL)";
  }
}

/**
 * `RPC_URL_<chain_id>`: one URL or several, comma-separated, each http or https (the suite polls;
 * it holds no subscriptions). Throws a message naming the variable, never the URL's secret parts.
 */
export function parseRpcUrls(variable: string, value: string): string[] {
  const urls = value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  if (urls.length === 0) throw new Error(`${variable} must name at least one http(s) URL`);
  urls.forEach((url, index) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`${variable}: entry ${index + 1} is not a URL`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      throw new Error(`${variable}: entry ${index + 1} (${redactRpcUrl(url)}) must be http or https`);
    }
  });
  if (new Set(urls).size !== urls.length) throw new Error(`${variable} names the same URL twice`);
  return urls;
}

/** One metric label per endpoint: its host, numbered when two endpoints share a host (two keys of one provider). */
export function endpointLabels(urls: readonly string[]): string[] {
  const hosts = urls.map((url) => new URL(url).host);
  return hosts.map((host, index) => (hosts.indexOf(host) === hosts.lastIndexOf(host) ? host : `${host}#${hosts.slice(0, index + 1).filter((h) => h === host).length}`));
}
