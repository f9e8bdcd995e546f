import { ApiFailure } from "./api-error";

/** A failed sign-in in one short sentence: what went wrong and what to do, without codes. */
export function signInFailure(failure: unknown, withLink: boolean): string {
  if (!(failure instanceof ApiFailure)) return "The console could not be reached. Check your connection and try again.";
  if (failure.code === "rate_limited") return `Too many sign-ins from here. Try again in ${failure.retryAfterSeconds ?? 60} seconds.`;
  if (failure.status === 401 && failure.message === "this console user is disabled") return "This console user is disabled. Ask your operator to enable it.";
  if (failure.status === 401) return withLink ? "This link is not valid any more. Ask your operator for a new one." : "The email or password is wrong.";
  if (failure.code === "invalid_json") return withLink ? `The password must have at least 12 characters.` : "Enter your email and password.";
  return "Signing in failed on the service side. Try again in a minute.";
}
