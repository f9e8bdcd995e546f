import { hash, verify } from "@node-rs/argon2";

/** The shortest password the console accepts (NIST SP 800-63B asks at least 8; a partner's money is behind this one). */
export const MIN_PASSWORD_LENGTH = 12;
/** Longer ones are refused before hashing: a megabyte of password is a way to spend the server's time. */
export const MAX_PASSWORD_LENGTH = 1024;

/** Argon2id with the library's defaults (19 MiB, 2 passes, 1 lane: OWASP's recommended minimum), as a PHC string. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** A hash of nothing anyone types, verified when there is no user or no password, so a miss takes as long as a wrong password. */
const NO_PASSWORD = hash("no console user has this password");

/** Whether the password is the one hashed; false for a user without a password, after the same work. */
export async function passwordMatches(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) {
    await verify(await NO_PASSWORD, password);
    return false;
  }
  return verify(passwordHash, password);
}
