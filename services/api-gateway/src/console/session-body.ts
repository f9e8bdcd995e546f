import type { ConsoleSession } from "./session-store";

/** GET /console/api/session's body (also the answer of each sign-in): who is signed in, for which partner, and the CSRF token. */
export function presentSession(session: ConsoleSession) {
  const { partner } = session;
  return {
    user: { id: session.user.id, email: session.user.email },
    partner: { id: partner.id, name: partner.name, environment: partner.environment, disabled: !partner.enabled },
    csrf_token: session.csrfToken,
  };
}
