import { messageRegistry } from "./messages";

/** Every `…Id` field of a payload of any message type: the names the services log these ids under. */
const idFields = [...new Set(Object.values(messageRegistry).flatMap((entry) => Object.keys(entry.schema.shape).filter((key) => key.endsWith("Id"))))];

/** An invalid message may carry anything: a value longer than any id is cut, so a line stays one line of bounded size. */
const MAX_ID_LENGTH = 64;

/**
 * The ids a message body names, as log fields, so that a line about a message (a failure, a retry,
 * a dead letter) leads to the sweep, batch or transaction it was about. Reads a body that failed
 * its schema too: that is the message an on-call engineer most needs to trace.
 */
export function payloadIds(body: unknown): Record<string, string | number> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return {};
  const ids: Record<string, string | number> = {};
  for (const field of idFields) {
    const value: unknown = (body as Record<string, unknown>)[field];
    if (typeof value === "string") ids[field] = value.slice(0, MAX_ID_LENGTH);
    else if (typeof value === "number" && Number.isSafeInteger(value)) ids[field] = value;
  }
  return ids;
}
