import { randomBytes } from "node:crypto";
import { SigningKey, computeAddress, getBytes, hexlify } from "ethers";
import * as pkcs11js from "pkcs11js";
import { SECP256K1_EC_PARAMS, ecPointAddress, ethereumSignature, signatureParts } from "./ecdsa-signature";
import { slotLabelled } from "./token-slot";

/** Where gas wallet keys are held when GAS_WALLET_KEYS=pkcs11. The PIN is a secret: no message carries it. */
export interface Pkcs11Config {
  /** path of the vendor's PKCS#11 module, e.g. /usr/lib/softhsm/libsofthsm2.so */
  library: string;
  tokenLabel: string;
  pin: string;
}

/** A secp256k1 key pair in the token, found by its label. */
export interface TokenKey {
  label: string;
  address: string;
  privateKey: pkcs11js.Handle;
  publicKey: pkcs11js.Handle;
}

// One module instance per library per process: C_Initialize and C_Finalize are per process, so
// the last token closed finalizes it, and the next open reads the module's configuration afresh.
const modules = new Map<string, { module: pkcs11js.PKCS11; users: number }>();

function acquireModule(library: string): pkcs11js.PKCS11 {
  const held = modules.get(library);
  if (held) {
    held.users += 1;
    return held.module;
  }
  const module = new pkcs11js.PKCS11();
  try {
    module.load(library);
  } catch (err) {
    throw new Error(`PKCS11_LIBRARY ${library} could not be loaded: ${(err as Error).message}`);
  }
  module.C_Initialize();
  modules.set(library, { module, users: 1 });
  return module;
}

function releaseModule(library: string): void {
  const held = modules.get(library);
  if (!held) return;
  held.users -= 1;
  if (held.users > 0) return;
  modules.delete(library);
  held.module.C_Finalize();
  held.module.close();
}

/** The name of a PKCS#11 return value in an error, e.g. CKR_PIN_INCORRECT. */
function returnValue(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return /CKR_[A-Z_]+/.exec(message)?.[0] ?? message;
}

/**
 * A logged-in session with one token: generates gas wallet keys in it (never extractable), or imports them, and
 * signs digests with them. Calls are synchronous: a C_SignInit and its C_Sign never interleave
 * with another signature's on the one session.
 */
export class Pkcs11Token {
  private constructor(
    private readonly module: pkcs11js.PKCS11,
    private readonly session: pkcs11js.Handle,
    private readonly config: Pkcs11Config,
  ) {}

  /** Opens the token labelled `tokenLabel` and logs in; a missing token or a refused PIN is an error naming which. */
  static open(config: Pkcs11Config): Pkcs11Token {
    const module = acquireModule(config.library);
    try {
      const slot = slotLabelled(module.C_GetSlotList(true), (s) => module.C_GetTokenInfo(s).label, config.tokenLabel, config.library);
      const session = module.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION);
      try {
        module.C_Login(session, pkcs11js.CKU_USER, config.pin);
      } catch (err) {
        const code = returnValue(err);
        if (code !== "CKR_USER_ALREADY_LOGGED_IN") {
          module.C_CloseSession(session);
          const why = code === "CKR_PIN_INCORRECT" || code === "CKR_PIN_LEN_RANGE" ? "PKCS11_PIN was refused" : "login failed";
          throw new Error(`${why} by token "${config.tokenLabel}" (${code})`);
        }
      }
      return new Pkcs11Token(module, session, config);
    } catch (err) {
      releaseModule(config.library);
      throw err;
    }
  }

  get label(): string {
    return this.config.tokenLabel;
  }

  /** A new secp256k1 key pair generated inside the token under `label`; the private key can never leave it. */
  generateKey(label: string): TokenKey {
    if (this.findObject(pkcs11js.CKO_PRIVATE_KEY, label)) throw new Error(`token "${this.label}" already holds a key labelled ${label}`);
    const common = [
      { type: pkcs11js.CKA_TOKEN, value: true },
      { type: pkcs11js.CKA_LABEL, value: label },
    ];
    const { publicKey, privateKey } = this.module.C_GenerateKeyPair(
      this.session,
      { mechanism: pkcs11js.CKM_EC_KEY_PAIR_GEN },
      [...common, { type: pkcs11js.CKA_EC_PARAMS, value: SECP256K1_EC_PARAMS }, { type: pkcs11js.CKA_VERIFY, value: true }],
      [
        ...common,
        { type: pkcs11js.CKA_PRIVATE, value: true },
        { type: pkcs11js.CKA_SENSITIVE, value: true },
        { type: pkcs11js.CKA_EXTRACTABLE, value: false },
        { type: pkcs11js.CKA_SIGN, value: true },
      ],
    );
    return { label, address: this.addressOf(publicKey), privateKey, publicKey };
  }

  /**
   * An existing secp256k1 private key (the 32-byte scalar) written into the token under `label`, with
   * its public key beside it, protected as generated keys are from now on. The token marks it
   * CKA_LOCAL, CKA_ALWAYS_SENSITIVE and CKA_NEVER_EXTRACTABLE false: it was once outside. Before it
   * is returned the token signs a digest with it that must recover to the scalar's address; any
   * failure leaves nothing under `label`.
   */
  importKeyPair(label: string, privateKey: Uint8Array): TokenKey {
    if (privateKey.length !== 32) throw new Error(`a secp256k1 private key is 32 bytes, not ${privateKey.length}`);
    if (this.findObject(pkcs11js.CKO_PRIVATE_KEY, label) || this.findObject(pkcs11js.CKO_PUBLIC_KEY, label)) {
      throw new Error(`token "${this.label}" already holds an object labelled ${label}`);
    }
    const point = getBytes(SigningKey.computePublicKey(privateKey, false));
    const address = computeAddress(hexlify(point));
    const common = [
      { type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_EC },
      { type: pkcs11js.CKA_TOKEN, value: true },
      { type: pkcs11js.CKA_LABEL, value: label },
      { type: pkcs11js.CKA_EC_PARAMS, value: SECP256K1_EC_PARAMS },
    ];
    const created: pkcs11js.Handle[] = [];
    try {
      const privateHandle = this.module.C_CreateObject(this.session, [
        ...common,
        { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY },
        { type: pkcs11js.CKA_VALUE, value: Buffer.from(privateKey) },
        { type: pkcs11js.CKA_PRIVATE, value: true },
        { type: pkcs11js.CKA_SENSITIVE, value: true },
        { type: pkcs11js.CKA_EXTRACTABLE, value: false },
        { type: pkcs11js.CKA_SIGN, value: true },
      ]);
      created.push(privateHandle);
      const publicHandle = this.module.C_CreateObject(this.session, [
        ...common,
        { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PUBLIC_KEY },
        // DER OCTET STRING of the uncompressed point, as PKCS#11 specifies (and C_GenerateKeyPair gives).
        { type: pkcs11js.CKA_EC_POINT, value: Buffer.concat([Buffer.from([0x04, point.length]), point]) },
        { type: pkcs11js.CKA_VERIFY, value: true },
      ]);
      created.push(publicHandle);
      const key = { label, address: this.addressOf(publicHandle), privateKey: privateHandle, publicKey: publicHandle };
      if (key.address !== address) throw new Error(`the public key written to token "${this.label}" is ${key.address}, not ${address}`);
      // The token's own signature is the proof that the object it holds is this key.
      const digest = randomBytes(32);
      ethereumSignature(hexlify(digest), this.signDigest(key, digest), address);
      return key;
    } catch (err) {
      for (const handle of created) this.module.C_DestroyObject(this.session, handle);
      throw err;
    }
  }

  /** The key pair labelled `label`, as a restarted process finds it. */
  findKey(label: string): TokenKey {
    const privateKey = this.findObject(pkcs11js.CKO_PRIVATE_KEY, label);
    const publicKey = this.findObject(pkcs11js.CKO_PUBLIC_KEY, label);
    if (!privateKey || !publicKey) throw new Error(`token "${this.label}" holds no key pair labelled ${label}`);
    return { label, address: this.addressOf(publicKey), privateKey, publicKey };
  }

  /** CKM_ECDSA over a 32-byte digest: r and s as the token made them (s of either half, no recovery id). */
  signDigest(key: TokenKey, digest: Uint8Array): { r: bigint; s: bigint } {
    this.module.C_SignInit(this.session, { mechanism: pkcs11js.CKM_ECDSA }, key.privateKey);
    return signatureParts(this.module.C_Sign(this.session, Buffer.from(digest), Buffer.alloc(128)));
  }

  /** CKA_EXTRACTABLE and CKA_SENSITIVE of a private key, as the token reports them. */
  protection(key: TokenKey): { extractable: boolean; sensitive: boolean } {
    const [extractable, sensitive] = this.module.C_GetAttributeValue(this.session, key.privateKey, [{ type: pkcs11js.CKA_EXTRACTABLE }, { type: pkcs11js.CKA_SENSITIVE }]);
    return { extractable: extractable!.value[0] === 1, sensitive: sensitive!.value[0] === 1 };
  }

  /**
   * CKA_LOCAL, CKA_ALWAYS_SENSITIVE and CKA_NEVER_EXTRACTABLE of a private key, as the token reports
   * them: all true for a key generated in the token, false for one written into it.
   */
  origin(key: TokenKey): { local: boolean; alwaysSensitive: boolean; neverExtractable: boolean } {
    const [local, alwaysSensitive, neverExtractable] = this.module.C_GetAttributeValue(this.session, key.privateKey, [
      { type: pkcs11js.CKA_LOCAL },
      { type: pkcs11js.CKA_ALWAYS_SENSITIVE },
      { type: pkcs11js.CKA_NEVER_EXTRACTABLE },
    ]);
    return { local: local!.value[0] === 1, alwaysSensitive: alwaysSensitive!.value[0] === 1, neverExtractable: neverExtractable!.value[0] === 1 };
  }

  /** Removes a key pair, e.g. one generated for a gas wallet whose row could not be stored. */
  destroyKey(key: TokenKey): void {
    this.module.C_DestroyObject(this.session, key.privateKey);
    this.module.C_DestroyObject(this.session, key.publicKey);
  }

  close(): void {
    try {
      this.module.C_CloseSession(this.session);
    } finally {
      releaseModule(this.config.library);
    }
  }

  private addressOf(publicKey: pkcs11js.Handle): string {
    const [point] = this.module.C_GetAttributeValue(this.session, publicKey, [{ type: pkcs11js.CKA_EC_POINT }]);
    return ecPointAddress(point!.value);
  }

  private findObject(objectClass: number, label: string): pkcs11js.Handle | null {
    this.module.C_FindObjectsInit(this.session, [
      { type: pkcs11js.CKA_CLASS, value: objectClass },
      { type: pkcs11js.CKA_LABEL, value: label },
    ]);
    try {
      const found = this.module.C_FindObjects(this.session, 2);
      if (found.length > 1) throw new Error(`token "${this.label}" holds several objects labelled ${label}`);
      return found[0] ?? null;
    } finally {
      this.module.C_FindObjectsFinal(this.session);
    }
  }
}
