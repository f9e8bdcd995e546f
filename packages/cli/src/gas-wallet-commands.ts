import { Pkcs11Token, gasWalletKeyLabel, pkcs11ConfigOf, resolveKeks, unsealGasWalletKey, type TokenKey } from "@sweep/key-custody";
import { getBytes } from "ethers";
import type { CommandContext } from "./context";
import { findPartner } from "./partner-commands";

/**
 * `gas-wallet import --partner ID`: the partner's sealed gas wallet key written into the PKCS#11
 * token (GAS_WALLET_KEYS=pkcs11), checked there by a signature that recovers to the wallet's
 * address, and only then the row moved to the token in one update guarded on its still being
 * sealed, its ciphertext cleared. The address stays: nothing changes for the partner.
 */
export async function importGasWalletKey(ctx: CommandContext, partnerId: string): Promise<void> {
  const pkcs11 = pkcs11ConfigOf(ctx.config);
  if (!pkcs11) throw new Error("gas-wallet import writes the key into the PKCS#11 token: run it with GAS_WALLET_KEYS=pkcs11 and PKCS11_LIBRARY, PKCS11_TOKEN_LABEL, PKCS11_PIN");
  const partner = await findPartner(ctx.db, partnerId);
  const gasWallet = await ctx.db.gasWallet.findUnique({ where: { partnerId: partner.id } });
  if (!gasWallet) throw new Error(`partner ${partner.id} has no gas wallet`);
  const { id, address, keyCustody, encryptedKey, kekId } = gasWallet;
  if (keyCustody !== "sealed" || !encryptedKey || !kekId) {
    throw new Error(`partner ${partner.id}'s gas wallet ${address} is not sealed: its key is held as ${keyCustody}${gasWallet.keyLabel ? ` (label ${gasWallet.keyLabel})` : ""}`);
  }
  const wallet = unsealGasWalletKey({ address, encryptedKey, kekId }, resolveKeks(ctx.config, (warning) => ctx.out.note(warning)).all);

  const label = gasWalletKeyLabel(id);
  const token = Pkcs11Token.open(pkcs11);
  try {
    const scalar = getBytes(wallet.privateKey);
    let key: TokenKey;
    try {
      key = token.importKeyPair(label, scalar);
    } finally {
      scalar.fill(0);
    }
    if (key.address !== address) {
      token.destroyKey(key);
      throw new Error(`the key written to token "${token.label}" is ${key.address}, not gas wallet ${address}: removed again, the row is unchanged`);
    }
    await moveRowToToken(ctx, token, key, id);
  } finally {
    token.close();
  }

  ctx.out.result({ partner_id: partner.id, gas_wallet: address, key_custody: "pkcs11", key_label: label, token: pkcs11.tokenLabel }, [
    `gas wallet  ${address}  (partner ${partner.id}, ${partner.name})`,
    `key         imported into PKCS#11 token "${pkcs11.tokenLabel}" as ${label}; the sealed key is cleared from the database`,
  ]);
  ctx.out.note(
    "Restart every chain-sender, with GAS_WALLET_KEYS=pkcs11 and the PKCS11_ variables: one that has signed for this wallet since it started " +
      "keeps the decrypted key in memory and signs with it until it restarts; one running with GAS_WALLET_KEYS=sealed cannot sign for the wallet any more.",
  );
  ctx.out.note(
    "Database backups made before now still hold the sealed key, readable with the KEY_ENCRYPTION_KEY it names: the key was outside the HSM " +
      "(the token reports CKA_ALWAYS_SENSITIVE and CKA_NEVER_EXTRACTABLE false). Expire those backups, or rotate the gas wallet for a key that never was.",
  );
}

/**
 * The row now names the token's key, where it is still sealed (one update, as the CHECK constraint
 * wants the columns to change together). Where it no longer is, or the update surely failed, the
 * token's objects are removed: no key in the token that no row names.
 */
async function moveRowToToken(ctx: CommandContext, token: Pkcs11Token, key: TokenKey, gasWalletId: string): Promise<void> {
  let moved: number;
  try {
    ({ count: moved } = await ctx.db.gasWallet.updateMany({
      where: { id: gasWalletId, keyCustody: "sealed" },
      data: { keyCustody: "pkcs11", keyLabel: key.label, encryptedKey: null, kekId: null },
    }));
  } catch (err) {
    // An error may come after the commit (a connection lost): the key is removed only from a row seen still sealed.
    const row = await ctx.db.gasWallet.findUnique({ where: { id: gasWalletId }, select: { keyCustody: true } }).catch(() => null);
    if (row?.keyCustody === "sealed") token.destroyKey(key);
    else ctx.out.note(`the key stays in token "${token.label}" as ${key.label}: check gas wallet ${gasWalletId}'s row before removing it`);
    throw err;
  }
  if (moved === 0) {
    token.destroyKey(key);
    throw new Error(`gas wallet ${gasWalletId} was changed meanwhile (no longer sealed): the key written to the token was removed again`);
  }
}
