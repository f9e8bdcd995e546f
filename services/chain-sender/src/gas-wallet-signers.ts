import { storedKeySigner, type GasWalletSigner, type KeyEncryptionKey, type SealedGasWalletKey } from "@sweep/chain";

export interface GasWalletRow extends SealedGasWalletKey {
  id: string;
}

/** Gas wallet signers, decrypted once per process; the key never leaves the signer. */
export class GasWalletSigners {
  private readonly signers = new Map<string, GasWalletSigner>();

  constructor(private readonly keks: KeyEncryptionKey[]) {}

  signerFor(gasWallet: GasWalletRow): GasWalletSigner {
    let signer = this.signers.get(gasWallet.id);
    if (!signer) {
      signer = storedKeySigner(gasWallet, this.keks);
      this.signers.set(gasWallet.id, signer);
    }
    return signer;
  }
}
