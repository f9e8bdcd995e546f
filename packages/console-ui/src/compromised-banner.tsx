import { useEffect, useState } from "react";
import { Link, useLocation } from "react-router";
import { api } from "./api";

/**
 * A banner on every page while the delegation firewall holds any of the account's deposit addresses
 * compromised: read again at each navigation, silent when the read fails (the page says why).
 */
export function CompromisedBanner() {
  const location = useLocation();
  const [compromised, setCompromised] = useState(false);
  useEffect(() => {
    let current = true;
    void api
      .GET("/v1/deposit-addresses", { params: { query: { delegation: "compromised", limit: 1 } } })
      .then(({ data }) => current && setCompromised((data?.items.length ?? 0) > 0))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [location.key]);
  if (!compromised) return null;
  return (
    <p className="disabled-state" role="alert" data-testid="compromised-banner">
      <strong>Deposit addresses compromised.</strong> The delegation firewall saw one or more of your deposit addresses delegate elsewhere or send a transaction: their keys are out,
      and their sweeps are rejected. <Link to="/deposit-addresses?delegation=compromised">See them</Link>, then register a new authorization for each.
    </p>
  );
}
