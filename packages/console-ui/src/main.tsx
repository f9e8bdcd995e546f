import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { Layout } from "./layout";
import { SessionProvider } from "./session";
import { SignInPage } from "./pages/sign-in";
import { KeysPage } from "./pages/keys";
import { HotWalletsPage } from "./pages/hot-wallets";
import { SweepsPage, SweepPage } from "./pages/sweeps";
import { RevocationsPage, RevocationPage } from "./pages/revocations";
import { DepositAddressesPage } from "./pages/deposit-addresses";
import { SweepPoliciesPage } from "./pages/sweep-policies";
import { LedgerPage } from "./pages/ledger";
import { TariffPage } from "./pages/tariff";
import { WebhookPage } from "./pages/webhook";
import { RequestsPage } from "./pages/requests";
import { SettingsPage } from "./pages/settings";
import { NotFoundPage } from "./pages/not-found";
import "./styles.css";

// The charts (recharts) are most of the bundle: only the overview loads them, the other pages start without.
const OverviewPage = lazy(() => import("./pages/overview").then(({ OverviewPage }) => ({ default: OverviewPage })));

const router = createBrowserRouter(
  [
    { path: "/sign-in", element: <SignInPage /> },
    {
      element: <Layout />,
      children: [
        {
          index: true,
          element: (
            <Suspense fallback={<p aria-live="polite">Loading…</p>}>
              <OverviewPage />
            </Suspense>
          ),
        },
        { path: "keys", element: <KeysPage /> },
        { path: "hot-wallets", element: <HotWalletsPage /> },
        { path: "sweeps", element: <SweepsPage /> },
        { path: "sweeps/:id", element: <SweepPage /> },
        { path: "revocations", element: <RevocationsPage /> },
        { path: "revocations/:id", element: <RevocationPage /> },
        { path: "deposit-addresses", element: <DepositAddressesPage /> },
        { path: "sweep-policies", element: <SweepPoliciesPage /> },
        { path: "ledger", element: <LedgerPage /> },
        { path: "tariff", element: <TariffPage /> },
        { path: "webhook", element: <WebhookPage /> },
        { path: "requests", element: <RequestsPage /> },
        { path: "settings", element: <SettingsPage /> },
        { path: "*", element: <NotFoundPage /> },
      ],
    },
  ],
  { basename: "/console" },
);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <SessionProvider>
      <RouterProvider router={router} />
    </SessionProvider>
  </StrictMode>,
);
