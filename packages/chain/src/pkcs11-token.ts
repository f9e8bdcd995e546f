import * as pkcs11js from "pkcs11js";
import { SECP256K1_EC_PARAMS, ecPointAddress, signatureParts } from "./ecdsa-signature";

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
 * A logged-in session with one token: generates gas wallet keys in it (never extractable) and
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
      const slot = module.C_GetSlotList(true).find((s) => module.C_GetTokenInfo(s).label.trimEnd() === config.tokenLabel);
      if (!slot) throw new Error(`PKCS11_TOKEN_LABEL: no token labelled "${config.tokenLabel}" in ${config.library}`);
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
