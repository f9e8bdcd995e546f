/**
 * The opaque page cursor of a newest-first list: the `seq` of the last row of the page, the next
 * page being the rows below it. Rows added later get higher seqs, so they never shift a page.
 */
const PREFIX = "s1.";

export function encodeCursor(seq: bigint): string {
  return Buffer.from(PREFIX + seq.toString(10), "utf8").toString("base64url");
}

/** The seq a cursor carries, or null for anything that is not a cursor of ours. */
export function decodeCursor(cursor: string): bigint | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const match = /^s1\.([1-9][0-9]{0,18})$/.exec(text);
  if (!match) return null;
  const seq = BigInt(match[1]!);
  // seq is a Postgres bigint
  return seq <= 9223372036854775807n ? seq : null;
}
