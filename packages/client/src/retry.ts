import { backOff } from "exponential-backoff";
import { SweepNetworkError, errorOf } from "./errors";

export interface RetryOptions {
  /** attempts in all, the first included (default 5; 1 turns retries off) */
  attempts?: number;
  /** the pause before the second attempt, doubling after each (default 500 ms) */
  initialDelayMs?: number;
  /** the longest pause (default 10 s) */
  maxDelayMs?: number;
  /** one attempt's limit (default 30 s); an attempt that runs out is retried */
  attemptTimeoutMs?: number;
}

/**
 * Whether an answer is worth asking for again. Every request of the API can be sent twice
 * without doing anything twice (sweeps and revocations by their external_id, which the client
 * always sets), except POST /v1/webhook/test, which queues a new event each time.
 */
export function isRetryableAnswer(method: string, pathname: string, status: number, code: string | undefined): boolean {
  if (status === 409) return code === "hot_wallet_not_active"; // passes once the delegate is deployed
  if (status !== 429 && status < 500) return false;
  return !(method === "POST" && pathname.endsWith("/v1/webhook/test"));
}

/** A network failure or an attempt that ran out of time, as fetch reports them (never the caller's own abort). */
export function isTransientFailure(error: unknown): boolean {
  // By name: fetch's errors may come from another realm (a test runner's, a worker's) than this code's classes.
  const name = (error as { name?: unknown } | null)?.name;
  return name === "TypeError" || name === "TimeoutError";
}

/** Retry-After in seconds (an HTTP date is not sent by the API), capped at a minute; 0 when absent or unreadable. */
export function retryAfterMs(header: string | null): number {
  const seconds = Number(header);
  return header !== null && Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 60) * 1000 : 0;
}

class RetryableAnswer extends Error {
  constructor(readonly response: Response) {
    super(`HTTP ${response.status}`);
  }
}

/**
 * fetch that sends a request again, the same request, after a network failure, a timeout, a 5xx,
 * a 429 or a 409 hot_wallet_not_active, pausing with exponential backoff and full jitter
 * (exponential-backoff: maintained, small, CJS and ESM); the last answer is returned as it is.
 */
export function retryingFetch(fetchImpl: typeof fetch, options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 30_000;
  const attempts = options.attempts ?? 5;
  return async (request) => {
    const { origin, pathname } = new URL(request.url);
    let tries = 0;
    // The answer given up on, whose body is let go when the next attempt starts (the last one is returned whole).
    let previous: Response | undefined;
    try {
      return await backOff(
        async () => {
          await previous?.body?.cancel();
          tries++;
          const response = await fetchImpl(request.clone(), { signal: AbortSignal.any([request.signal, AbortSignal.timeout(attemptTimeoutMs)]) });
          const code = response.status === 409 ? errorOf(await response.clone().json().catch(() => undefined))?.code : undefined;
          if (!isRetryableAnswer(request.method, pathname, response.status, code)) return response;
          previous = response;
          throw new RetryableAnswer(response);
        },
        {
          numOfAttempts: attempts,
          startingDelay: options.initialDelayMs ?? 500,
          maxDelay: options.maxDelayMs ?? 10_000,
          timeMultiple: 2,
          jitter: "full",
          retry: async (error, attemptsMade) => {
            if (request.signal.aborted || !(error instanceof RetryableAnswer || isTransientFailure(error))) return false;
            // A 429 says how long to wait: on top of the backoff, up to a minute.
            const wait = error instanceof RetryableAnswer ? retryAfterMs(error.response.headers.get("retry-after")) : 0;
            if (wait > 0 && attemptsMade < attempts) await new Promise((resolve) => setTimeout(resolve, wait));
            return true;
          },
        },
      );
    } catch (error) {
      if (error instanceof RetryableAnswer) return error.response;
      // The caller's own abort stays what it is; a network that never answered names where and how often it was tried.
      if (!request.signal.aborted && isTransientFailure(error)) throw new SweepNetworkError({ origin, method: request.method, pathname }, tries, error);
      throw error;
    }
  };
}
