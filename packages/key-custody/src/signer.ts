import { Wallet, type Provider, type Signer } from "ethers";
import { decryptSecret, encryptSecret, type KeyEncryptionKey } from "./key-encryption";

/**
 * Where a gas wallet's signatures come from. The stored-key implementation below decrypts the key
 * in process; a KMS or HSM signer implements the same interface.
 */
export interface GasWalletSigner {
  readonly address: string;
  /** an ethers Signer bound to a chain's provider */
  connect(provider: Provider): Signer;
}

export interface SealedGasWalletKey {
  address: string;
  encryptedKey: string;
  kekId: string;
}

/** Generates a gas wallet key and seals it under the KEK; the plaintext never leaves this function. */
export function createSealedGasWalletKey(kek: KeyEncryptionKey): SealedGasWalletKey {
  const wallet = Wallet.createRandom();
  return { address: wallet.address, encryptedKey: encryptSecret(kek, Buffer.from(wallet.privateKey.slice(2), "hex")), kekId: kek.id };
}

/** The sealed key decrypted under its KEK and checked against its address: for signing, or for an import into a token. */
export function unsealGasWalletKey(sealed: SealedGasWalletKey, keks: KeyEncryptionKey[]): Wallet {
  const kek = keks.find((k) => k.id === sealed.kekId);
  if (!kek) throw new Error(`no key-encryption key with id ${sealed.kekId} for gas wallet ${sealed.address}`);
  const wallet = new Wallet("0x" + decryptSecret(kek, sealed.encryptedKey).toString("hex"));
  if (wallet.address !== sealed.address) throw new Error(`gas wallet key does not match ${sealed.address}`);
  return wallet;
}

export function storedKeySigner(sealed: SealedGasWalletKey, keks: KeyEncryptionKey[]): GasWalletSigner {
  const wallet = unsealGasWalletKey(sealed, keks);
  return { address: wallet.address, connect: (provider) => wallet.connect(provider) };
}
