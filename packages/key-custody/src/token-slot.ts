/**
 * The slot holding the token labelled `label`. A slot whose token cannot be read (SoftHSM2 answers
 * CKR_GENERAL_ERROR for a token another process is creating or removing in the same directory; a
 * hardware module for a token being reset) is not ours to fail on: it is passed over, and named
 * only when our token is not found.
 */
export function slotLabelled<S>(slots: readonly S[], readLabel: (slot: S) => string, label: string, library: string): S {
  const unreadable: string[] = [];
  for (const slot of slots) {
    let slotLabel: string;
    try {
      slotLabel = readLabel(slot).trimEnd();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      unreadable.push(/CKR_[A-Z_]+/.exec(message)?.[0] ?? message);
      continue;
    }
    if (slotLabel === label) return slot;
  }
  const passedOver = unreadable.length > 0 ? ` (${unreadable.length} slot(s) could not be read: ${[...new Set(unreadable)].join(", ")})` : "";
  throw new Error(`PKCS11_TOKEN_LABEL: no token labelled "${label}" in ${library}${passedOver}`);
}
