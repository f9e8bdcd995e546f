import { storedKeySigner, tokenKeySigner, type GasWalletSigner, type KeyEncryptionKey, type Pkcs11Token } from "@sweep/key-custody";

/** A gas wallet as the database records it, with where its key is held (key_custody). */
export interface GasWalletRow {
  id: string;
  address: string;
  keyCustody: string;
  encryptedKey: string | null;
  kekId: string | null;
  keyLabel: string | null;
}

/**
 * Gas wallet signers, made once per process: a sealed key decrypted, or a token's key found by its
 * label. Each wallet is signed for as its row says, so sealed wallets keep working beside a token.
 */
export class GasWalletSigners {
  private readonly signers = new Map<string, GasWalletSigner>();

  constructor(
    private readonly keks: KeyEncryptionKey[],
    private readonly token?: Pkcs11Token,
  ) {}

  signerFor(gasWallet: GasWalletRow): GasWalletSigner {
    let signer = this.signers.get(gasWallet.id);
    if (!signer) {
      signer = this.makeSigner(gasWallet);
      this.signers.set(gasWallet.id, signer);
    }
    return signer;
  }

  private makeSigner({ id, address, keyCustody, encryptedKey, kekId, keyLabel }: GasWalletRow): GasWalletSigner {
    if (keyCustody === "pkcs11" && keyLabel) {
      if (!this.token) throw new Error(`gas wallet ${address}'s key is in a PKCS#11 token: this chain-sender runs with GAS_WALLET_KEYS=sealed`);
      return tokenKeySigner(this.token, keyLabel, address);
    }
    if (keyCustody === "sealed" && encryptedKey && kekId) return storedKeySigner({ address, encryptedKey, kekId }, this.keks);
    throw new Error(`gas wallet ${id} has key custody ${keyCustody} without its key's record`);
  }
}
