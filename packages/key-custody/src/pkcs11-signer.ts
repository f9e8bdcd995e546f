import {
  AbstractSigner,
  Transaction,
  TypedDataEncoder,
  copyRequest,
  getAddress,
  hashMessage,
  resolveAddress,
  type Provider,
  type Signature,
  type TransactionLike,
  type TransactionRequest,
  type TypedDataDomain,
  type TypedDataField,
} from "ethers";
import { ethereumSignature } from "./ecdsa-signature";
import type { Pkcs11Token, TokenKey } from "./pkcs11-token";
import type { GasWalletSigner } from "./signer";

/** An ethers signer whose key stays in a PKCS#11 token: ethers hashes, the token signs, we make the signature Ethereum's. */
export class TokenKeySigner extends AbstractSigner {
  constructor(
    private readonly token: Pkcs11Token,
    private readonly key: TokenKey,
    provider: Provider | null = null,
  ) {
    super(provider);
  }

  getAddress(): Promise<string> {
    return Promise.resolve(this.key.address);
  }

  connect(provider: Provider | null): TokenKeySigner {
    return new TokenKeySigner(this.token, this.key, provider);
  }

  /** As ethers' Wallet does: the unsigned serialization's hash, signed, set on the transaction. */
  async signTransaction(request: TransactionRequest): Promise<string> {
    const tx = copyRequest(request);
    if (tx.from != null) {
      if (getAddress(await resolveAddress(tx.from, this)) !== this.key.address) throw new Error(`transaction from ${String(tx.from)} given to the signer of ${this.key.address}`);
      delete tx.from;
    }
    if (tx.to != null) tx.to = await resolveAddress(tx.to, this);
    const unsigned = Transaction.from(tx as TransactionLike<string>);
    unsigned.signature = this.sign(unsigned.unsignedHash);
    return unsigned.serialized;
  }

  signMessage(message: string | Uint8Array): Promise<string> {
    return Promise.resolve(this.sign(hashMessage(message)).serialized);
  }

  async signTypedData(domain: TypedDataDomain, types: Record<string, TypedDataField[]>, value: Record<string, unknown>): Promise<string> {
    const resolved = await TypedDataEncoder.resolveNames(domain, types, value, async (name) => resolveAddress(name, this));
    return this.sign(TypedDataEncoder.hash(resolved.domain, types, resolved.value)).serialized;
  }

  private sign(digest: string): Signature {
    return ethereumSignature(digest, this.token.signDigest(this.key, Buffer.from(digest.slice(2), "hex")), this.key.address);
  }
}

/** The gas wallet whose key the token holds under `label`; `address` is what the database recorded for it. */
export function tokenKeySigner(token: Pkcs11Token, label: string, address: string): GasWalletSigner {
  const key = token.findKey(label);
  if (key.address !== address) throw new Error(`the key labelled ${label} in token "${token.label}" is ${key.address}, not gas wallet ${address}`);
  const signer = new TokenKeySigner(token, key);
  return { address, connect: (provider) => signer.connect(provider) };
}
