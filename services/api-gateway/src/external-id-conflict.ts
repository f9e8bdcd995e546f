/** Postgres refused the row: this account already has one of this external_id (a sweep, a revocation). */
export class DuplicateExternalId extends Error {
  constructor() {
    super("external_id is taken");
  }
}

/** Whether Postgres refused a row for the unique index `constraint`, e.g. sweeps_partner_id_external_id_key. */
export function violatesUnique(err: unknown, constraint: string): boolean {
  const pgError = err as { code?: string; constraint?: string };
  return pgError.code === "23505" && pgError.constraint === constraint;
}
