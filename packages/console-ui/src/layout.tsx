import { useEffect, useRef } from "react";
import { NavLink, Navigate, Outlet, useLocation } from "react-router";
import { CompromisedBanner } from "./compromised-banner";
import { useSession } from "./session";

const sections: [path: string, label: string][] = [
  ["/", "Overview"],
  ["/keys", "API keys"],
  ["/hot-wallets", "Hot wallets"],
  ["/sweeps", "Sweeps"],
  ["/revocations", "Revocations"],
  ["/deposit-addresses", "Deposit addresses"],
  ["/sweep-policies", "Sweep policies"],
  ["/ledger", "Ledger"],
  ["/tariff", "Tariff"],
  ["/webhook", "Webhook"],
  ["/requests", "Requests"],
  ["/settings", "Settings"],
];

/** Every signed-in page: the account, the sections, sign-out, and the disabled state when the partner is disabled. */
export function Layout() {
  const { session, signOut } = useSession();
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  // A new page moves focus to its content, so a screen reader announces it as a page load would.
  useEffect(() => main.current?.focus(), [location.pathname]);
  if (session === undefined) return <p aria-live="polite">Loading…</p>;
  if (session === null) return <Navigate to="/sign-in" replace />;
  return (
    <div className="shell">
      <a className="skip" href="#content">
        Skip to content
      </a>
      <header className="masthead">
        <p className="brand">Sweep console</p>
        <p className="account">
          {session.partner.name} · {session.partner.environment} · {session.user.email}
        </p>
        <button type="button" className="secondary" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <nav aria-label="Sections" className="sections">
        <ul>
          {sections.map(([path, label]) => (
            <li key={path}>
              <NavLink to={path} end={path === "/"}>
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="content" ref={main} tabIndex={-1}>
        {session.partner.disabled && (
          <p className="disabled-state" role="alert" data-testid="partner-disabled">
            <strong>This account is disabled.</strong> The API answers partner_disabled to every request of this account, and no sweeps are made. Contact support to enable it again.
          </p>
        )}
        <CompromisedBanner />
        <Outlet />
      </main>
    </div>
  );
}
