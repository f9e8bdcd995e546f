import { useCallback, useEffect, useState, type DependencyList, type ReactNode } from "react";
import { ApiFailure, describeFailure } from "./api-error";
import { useSession } from "./session";

export interface Loaded<T> {
  data: T | undefined;
  failure: unknown;
  loading: boolean;
  reload: () => void;
}

/** Runs a read when the page opens or its inputs change; a 401 means the session ended, so it is read again (and the page goes to sign-in). */
export function useLoad<T>(read: () => Promise<T>, deps: DependencyList): Loaded<T> {
  const { refresh } = useSession();
  const [state, setState] = useState<{ data: T | undefined; failure: unknown; loading: boolean }>({ data: undefined, failure: undefined, loading: true });
  const [round, setRound] = useState(0);
  // The caller names the inputs the read depends on.
  const stableRead = useCallback(read, deps);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    stableRead().then(
      (data) => current && setState({ data, failure: undefined, loading: false }),
      (failure: unknown) => {
        if (!current) return;
        setState({ data: undefined, failure, loading: false });
        if (failure instanceof ApiFailure && failure.status === 401) void refresh();
      },
    );
    return () => {
      current = false;
    };
  }, [stableRead, round, refresh]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}

/** A failure in words, announced to screen readers. */
export function FailureMessage({ failure }: { failure: unknown }) {
  if (failure === undefined) return null;
  return (
    <p className="failure" role="alert">
      {describeFailure(failure)}
    </p>
  );
}

/** A loaded read: its failure, a loading line, or the content. */
export function LoadedView<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ReactNode }) {
  if (loaded.failure !== undefined) return <FailureMessage failure={loaded.failure} />;
  if (loaded.data === undefined) return <p aria-live="polite">Loading…</p>;
  return <>{children(loaded.data)}</>;
}

/** A change the page makes: its pending state and failure, for a form's button and message. */
export function useAction() {
  const { refresh } = useSession();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<unknown>(undefined);
  const run = useCallback(
    async <T,>(change: () => Promise<T>): Promise<T | undefined> => {
      setPending(true);
      setFailure(undefined);
      try {
        return await change();
      } catch (caught) {
        setFailure(caught);
        if (caught instanceof ApiFailure && caught.status === 401) void refresh();
        return undefined;
      } finally {
        setPending(false);
      }
    },
    [refresh],
  );
  return { pending, failure, run };
}
