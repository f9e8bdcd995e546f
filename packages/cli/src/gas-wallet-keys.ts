import { randomUUID } from "node:crypto";
import { Pkcs11Token, createSealedGasWalletKey, gasWalletKeyLabel, pkcs11ConfigOf, resolveKeks } from "@sweep/key-custody";
import type { CommandContext } from "./context";

/** A new gas wallet's row (id, address, how its key is held), and the key's removal should the row not be stored. */
export interface NewGasWalletKey {
  record: { id: string; address: string; keyCustody: "sealed" | "pkcs11"; encryptedKey?: string; kekId?: string; keyLabel?: string };
  discard(): void;
  close(): void;
}

/**
 * A gas wallet key where GAS_WALLET_KEYS says: sealed under the current key-encryption key, or
 * generated in the PKCS#11 token under a label naming the gas wallet (its id, chosen here).
 */
export function newGasWalletKey(ctx: CommandContext): NewGasWalletKey {
  const id = randomUUID();
  const pkcs11 = pkcs11ConfigOf(ctx.config);
  if (!pkcs11) {
    const sealed = createSealedGasWalletKey(resolveKeks(ctx.config, (warning) => ctx.out.note(warning)).current);
    return { record: { id, keyCustody: "sealed", ...sealed }, discard: () => {}, close: () => {} };
  }
  const token = Pkcs11Token.open(pkcs11);
  try {
    const key = token.generateKey(gasWalletKeyLabel(id));
    return { record: { id, address: key.address, keyCustody: "pkcs11", keyLabel: key.label }, discard: () => token.destroyKey(key), close: () => token.close() };
  } catch (err) {
    token.close();
    throw err;
  }
}
