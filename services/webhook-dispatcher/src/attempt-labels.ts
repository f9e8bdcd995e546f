import type { AttemptResult } from "./attempt-errors";

export interface AttemptLabels {
  /** failed: tried again later; gave_up: the delivery's last attempt failed */
  outcome: "delivered" | "failed" | "gave_up";
  /** http_2xx … http_5xx by the answer's status, otherwise why no answer came (timeout, connection_refused, …) */
  reason: string;
}

/** The labels of sweep_webhook_attempts_total for a recorded attempt: a few fixed values, never a status code or a host. */
export function attemptLabels(result: AttemptResult, lastAttempt: boolean): AttemptLabels {
  if (result.outcome === "delivered") return { outcome: "delivered", reason: statusClass(result.statusCode) };
  const reason = result.statusCode !== null ? statusClass(result.statusCode) : result.error.startsWith("status ") ? "http_other" : result.error.toLowerCase().replaceAll(" ", "_");
  return { outcome: lastAttempt ? "gave_up" : "failed", reason };
}

function statusClass(statusCode: number): string {
  return statusCode >= 200 && statusCode < 600 ? `http_${Math.floor(statusCode / 100)}xx` : "http_other";
}
