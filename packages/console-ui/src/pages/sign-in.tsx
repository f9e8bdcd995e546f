import { useState, type FormEvent } from "react";
import { Navigate, useLocation, useNavigate } from "react-router";
import { consoleCall } from "../api";
import { useAction } from "../loading";
import { signInFailure } from "../sign-in-failure";
import { PageHeading } from "../page-heading";
import { useSession } from "../session";

/** The one-time link's token, from `#token=…`: kept in the fragment so it never reaches a server log. */
function linkToken(hash: string): string | undefined {
  const token = new URLSearchParams(hash.slice(1)).get("token");
  return token || undefined;
}

const MIN_PASSWORD = 12;

/** Sign-in with email and password, or, from a one-time link, setting the password first. */
export function SignInPage() {
  const { session } = useSession();
  // From the router's location, so opening the link over the sign-in page (only the fragment changes) shows the password form.
  const token = linkToken(useLocation().hash);
  // Signed in already: the overview, unless a new link (a password reset) is being opened.
  if (session && !token) return <Navigate to="/" replace />;
  // A form of its own per way in: an error of one never shows on the other.
  return <SignInForm key={token ?? "password"} token={token} />;
}

function SignInForm({ token }: { token: string | undefined }) {
  const { refresh } = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [repeated, setRepeated] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (token && password !== repeated) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    const signedIn = await action.run(async () => {
      await (token ? consoleCall("POST", "/sign-in/link", { token, password }) : consoleCall("POST", "/sign-in", { email, password }));
      return true;
    });
    if (!signedIn) return;
    // The link is spent: replacing this entry drops it from the address bar and history.
    if (await refresh()) navigate("/", { replace: true });
  };

  return (
    <main id="content" className="sign-in">
      <PageHeading title={token ? "Set your password" : "Sign in"} />
      <form onSubmit={(event) => void submit(event)} aria-describedby="sign-in-help">
        <p id="sign-in-help">
          {token
            ? `Choose a password of at least ${MIN_PASSWORD} characters. The link works once and for 24 hours.`
            : "Sign in with the email your operator registered and your password."}
        </p>
        {!token && (
          <div className="field">
            <label htmlFor="email">Email</label>
            <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </div>
        )}
        <div className="field">
          <label htmlFor="password">{token ? "New password" : "Password"}</label>
          <input
            id="password"
            type="password"
            autoComplete={token ? "new-password" : "current-password"}
            required
            minLength={token ? MIN_PASSWORD : undefined}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        {token && (
          <div className="field">
            <label htmlFor="repeated">Repeat the password</label>
            <input id="repeated" type="password" autoComplete="new-password" required value={repeated} onChange={(e) => setRepeated(e.target.value)} />
          </div>
        )}
        {mismatch && (
          <p className="failure" role="alert">
            The two passwords differ.
          </p>
        )}
        {action.failure !== undefined && (
          <p className="failure" role="alert" data-testid="sign-in-failure">
            {signInFailure(action.failure, token !== undefined)}
          </p>
        )}
        <button type="submit" disabled={action.pending}>
          {token ? "Set password and sign in" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
