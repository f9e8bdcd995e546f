/**
 * The opaque page cursor of a newest-first list: the `seq` of the last row of the page, the next
 * page being the rows below it. Rows added later get higher seqs, so they never shift a page.
 * Each list tags its cursors, so a cursor of one list is refused by another.
 */
export interface CursorCodec {
  encode(seq: bigint): string;
  /** The seq a cursor carries, or null for anything that is not a cursor of this list. */
  decode(cursor: string): bigint | null;
}

/** seq is a Postgres bigint */
const MAX_SEQ = 9223372036854775807n;

export function cursorCodec(tag: string): CursorCodec {
  const pattern = new RegExp(`^${tag}\\.([1-9][0-9]{0,18})$`);
  return {
    encode: (seq) => Buffer.from(`${tag}.${seq.toString(10)}`, "utf8").toString("base64url"),
    decode: (cursor) => {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null;
      const match = pattern.exec(Buffer.from(cursor, "base64url").toString("utf8"));
      if (!match) return null;
      const seq = BigInt(match[1]!);
      return seq <= MAX_SEQ ? seq : null;
    },
  };
}

/** GET /v1/sweeps; its tag is the one its cursors always had, so cursors handed out before stay valid. */
export const sweepCursors = cursorCodec("s1");
/** GET /v1/revocations */
export const revocationCursors = cursorCodec("r1");
/** GET /v1/ledger: its entries' ids are the seq (a bigserial like the others) */
export const ledgerCursors = cursorCodec("l1");
/** GET /v1/webhook/deliveries */
export const webhookDeliveryCursors = cursorCodec("w1");
/** GET /v1/deposit-addresses */
export const depositAddressCursors = cursorCodec("d1");
/** GET /v1/deposits */
export const depositCursors = cursorCodec("p1");
/** GET /v1/events */
export const eventCursors = cursorCodec("e1");
/** GET /v1/requests */
export const requestLogCursors = cursorCodec("q1");
