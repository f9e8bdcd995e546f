const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return uuid.test(value);
}

/** Checks the form before the database sees it, so a typo gets a plain answer instead of a driver error. */
export function requirePartnerId(value: string): string {
  if (!isUuid(value)) throw new Error(`not a partner id: ${JSON.stringify(value)} (a partner id is a UUID)`);
  return value.toLowerCase();
}

/** A chain id as typed on the command line: digits without a sign or leading zero. */
export function parseChainId(value: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(value)) throw new Error(`--chain takes a chain id, got ${JSON.stringify(value)}`);
  return Number(value);
}
