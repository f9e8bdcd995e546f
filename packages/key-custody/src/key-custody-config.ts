import { z } from "zod";
import type { Pkcs11Config } from "./pkcs11-token";

/** Where new gas wallet keys are made and whether the token is opened at start: GAS_WALLET_KEYS and the PKCS11_ variables. */
export const keyCustodyEnv = {
  /** sealed: keys sealed under KEY_ENCRYPTION_KEY (development); pkcs11: keys generated and used inside a PKCS#11 token */
  GAS_WALLET_KEYS: z.enum(["sealed", "pkcs11"]).default("sealed"),
  /** path of the token's PKCS#11 module, e.g. /usr/lib/softhsm/libsofthsm2.so */
  PKCS11_LIBRARY: z.string().optional(),
  PKCS11_TOKEN_LABEL: z.string().optional(),
  /** the token's user PIN: a secret, never logged */
  PKCS11_PIN: z.string().optional(),
};

type KeyCustodyVariables = { GAS_WALLET_KEYS: "sealed" | "pkcs11"; PKCS11_LIBRARY?: string; PKCS11_TOKEN_LABEL?: string; PKCS11_PIN?: string };

const required = ["PKCS11_LIBRARY", "PKCS11_TOKEN_LABEL", "PKCS11_PIN"] as const;

/** A refinement for a schema holding keyCustodyEnv: with GAS_WALLET_KEYS=pkcs11, each PKCS11_ variable is required. */
export function requirePkcs11Variables(config: KeyCustodyVariables, ctx: z.RefinementCtx): void {
  if (config.GAS_WALLET_KEYS !== "pkcs11") return;
  for (const name of required) if (!config[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when GAS_WALLET_KEYS=pkcs11" });
}

/** The token to open, or undefined when keys are sealed. */
export function pkcs11ConfigOf(config: KeyCustodyVariables): Pkcs11Config | undefined {
  if (config.GAS_WALLET_KEYS !== "pkcs11") return undefined;
  const { PKCS11_LIBRARY: library, PKCS11_TOKEN_LABEL: tokenLabel, PKCS11_PIN: pin } = config;
  if (!library || !tokenLabel || !pin) throw new Error(`GAS_WALLET_KEYS=pkcs11 needs ${required.join(", ")}`);
  return { library, tokenLabel, pin };
}

/** The label of a gas wallet's key pair in the token: its id, so a restarted process finds it from the row. */
export function gasWalletKeyLabel(gasWalletId: string): string {
  return `sweep-gas-wallet:${gasWalletId}`;
}
