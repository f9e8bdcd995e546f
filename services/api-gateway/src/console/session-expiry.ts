/** A session ends after this long without a request (sliding)... */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** ...and this long after sign-in, whatever happens. */
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;
/** lastSeenAt is written at most this often: a page polling the API costs no write per request. */
export const SESSION_TOUCH_MS = 60 * 1000;

export interface SessionTimes {
  lastSeenAt: Date;
  expiresAt: Date;
}

export function sessionAlive(session: SessionTimes, now: Date): boolean {
  return now < session.expiresAt && now.getTime() < session.lastSeenAt.getTime() + SESSION_IDLE_MS;
}

/** Whether this request should move lastSeenAt: the idle expiry slides by at most a minute's error. */
export function sessionNeedsTouch(session: SessionTimes, now: Date): boolean {
  return now.getTime() - session.lastSeenAt.getTime() >= SESSION_TOUCH_MS;
}
