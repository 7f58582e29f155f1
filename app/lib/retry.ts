/**
 * Retry with exponential back-off, for calls made from the browser on slow or failing networks
 * (issue 14: "3 tries, 1 s doubling, capped at 30 s"). The caller decides what a retryable failure is.
 */
export type RetryOptions = {
  /** Attempts in all, the first one included. */
  tries?: number;
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Aborting stops the waiting at once and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** A failure this returns false for is thrown at once (a 4xx will not get better by asking again). */
  retryable?: (error: unknown) => boolean;
};

export const RETRY_DEFAULTS = { tries: 3, firstDelayMs: 1000, maxDelayMs: 30_000 } as const;

/** The wait before retry number `retry` (1 for the first retry): 1 s, 2 s, 4 s… never more than the cap. */
export function backoffDelay(retry: number, { firstDelayMs = RETRY_DEFAULTS.firstDelayMs, maxDelayMs = RETRY_DEFAULTS.maxDelayMs }: RetryOptions = {}): number {
  return Math.min(firstDelayMs * 2 ** Math.max(0, retry - 1), maxDelayMs);
}

export async function withRetry<T>(attempt: (n: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { tries = RETRY_DEFAULTS.tries, signal, retryable = () => true } = options;
  for (let n = 1; ; n++) {
    signal?.throwIfAborted();
    try {
      return await attempt(n);
    } catch (error) {
      if (n >= tries || signal?.aborted || !retryable(error)) throw error;
      await wait(backoffDelay(n, options), signal);
    }
  }
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", done);
      resolve();
    }, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
