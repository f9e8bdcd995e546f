import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Pkcs11Token, type Pkcs11Config } from "@sweep/key-custody";

export const SOFTHSM2_LIBRARY = "/usr/lib/softhsm/libsofthsm2.so";

export interface SoftHsmToken {
  config: Pkcs11Config;
  /** what a service needs to keep gas wallet keys in this token (SOFTHSM2_CONF and the PKCS11_ variables) */
  env: Record<string, string>;
  /** opens the token in this process */
  open(): Pkcs11Token;
  remove(): void;
}

/**
 * A SoftHSM2 configuration with a token directory of its own, for a whole test run: jest's global
 * setup sets SOFTHSM2_CONF to it, since SoftHSM2 reads that variable from the real process
 * environment, which a test file's process.env is only a copy of.
 */
export function createSoftHsmConfiguration(): string {
  const dir = mkdtempSync(join(tmpdir(), "softhsm-"));
  const tokens = join(dir, "tokens");
  mkdirSync(tokens);
  const conf = join(dir, "softhsm2.conf");
  writeFileSync(conf, `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  return conf;
}

/** A token of its own in the run's SoftHSM2 configuration, initialized with a random PIN. */
export function createSoftHsmToken(): SoftHsmToken {
  const conf = process.env.SOFTHSM2_CONF;
  if (!conf) throw new Error("SOFTHSM2_CONF is not set: jest's global setup sets it (createSoftHsmConfiguration)");
  const label = `sweep-${randomBytes(4).toString("hex")}`;
  const pin = randomBytes(8).toString("hex");
  softhsm(["--init-token", "--free", "--label", label, "--pin", pin, "--so-pin", randomBytes(8).toString("hex")]);
  const config = { library: SOFTHSM2_LIBRARY, tokenLabel: label, pin };
  return {
    config,
    env: { SOFTHSM2_CONF: conf, GAS_WALLET_KEYS: "pkcs11", PKCS11_LIBRARY: config.library, PKCS11_TOKEN_LABEL: label, PKCS11_PIN: pin },
    open: () => Pkcs11Token.open(config),
    remove: () => removeToken(conf, label),
  };
}

/**
 * Deletes the token. Any other process of the run that lists the tokens (a worker opening its own, a
 * service) briefly holds a lock file in every token's directory; softhsm2-util then deletes the
 * token's files but fails to remove the directory ("Could not delete the directory", seen in a full
 * run), and the directory left holds only such a lock: removed here, inside the token directory only.
 */
export function removeToken(conf: string, label: string, deleteToken = (token: string) => softhsm(["--delete-token", "--token", token])): void {
  try {
    deleteToken(label);
  } catch (err) {
    const left = /Could not delete the directory: (\S+)/.exec(err instanceof Error ? err.message : String(err))?.[1];
    if (!left || !left.startsWith(`${tokenDirectory(conf)}/`)) throw err;
    rmSync(left, { recursive: true, force: true });
  }
}

/** The token directory a SoftHSM2 configuration names. */
export function tokenDirectory(conf: string): string {
  const dir = /^directories\.tokendir\s*=\s*(\S+)\s*$/m.exec(readFileSync(conf, "utf8"))?.[1];
  if (!dir) throw new Error(`${conf} names no directories.tokendir`);
  return dir;
}

function softhsm(args: string[]): void {
  execFileSync("softhsm2-util", args, { stdio: "pipe" });
}
