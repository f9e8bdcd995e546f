import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from "react";
import { consoleCall, setCsrfToken, type Session } from "./api";

interface SessionState {
  /** undefined while loading, null when signed out */
  session: Session | null | undefined;
  refresh: () => Promise<Session | null>;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

/** The signed-in session, or null: the gateway answers signed out as `{ user: null }`, not as a failure. */
async function loadSession(): Promise<Session | null> {
  const session = await consoleCall<Session | { user: null }>("GET", "/session");
  if (session.user === null) return null;
  setCsrfToken(session.csrf_token);
  return session;
}

/** The signed-in user and partner, read once and again after signing in or out. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const refresh = useCallback(async () => {
    const loaded = await loadSession().catch(() => null);
    setSession(loaded);
    return loaded;
  }, []);
  const signOut = useCallback(async () => {
    await consoleCall("POST", "/sign-out").catch(() => undefined);
    setCsrfToken("");
    setSession(null);
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return <SessionContext.Provider value={{ session, refresh, signOut }}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error("useSession outside SessionProvider");
  return state;
}
