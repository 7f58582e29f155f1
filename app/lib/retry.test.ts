import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { backoffDelay, withRetry } from "./retry.ts";

describe("retry with back-off", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("doubles from 1 s and never waits more than 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(backoffDelay(3, { firstDelayMs: 10, maxDelayMs: 25 })).toBe(25);
  });

  it("tries three times in all, waiting 1 s then 2 s, and gives the last failure", async () => {
    const calls: number[] = [];
    const attempt = vi.fn((n: number) => {
      calls.push(Date.now());
      return Promise.reject(new Error(`failure ${n}`));
    });
    const result = withRetry(attempt);
    const failed = expect(result).rejects.toThrow("failure 3");
    await vi.runAllTimersAsync();
    await failed;
    expect(attempt).toHaveBeenCalledTimes(3);
    expect([calls[1] - calls[0], calls[2] - calls[1]]).toEqual([1000, 2000]);
  });

  it("stops as soon as an attempt succeeds", async () => {
    const attempt = vi.fn((n: number) => (n < 2 ? Promise.reject(new Error("down")) : Promise.resolve(n)));
    const result = withRetry(attempt);
    await vi.runAllTimersAsync();
    await expect(result).resolves.toBe(2);
    expect(attempt).toHaveBeenCalledTimes(2);
  });

  it("does not retry what the caller calls final, and stops waiting when aborted", async () => {
    const final = vi.fn(() => Promise.reject(new Error("400")));
    await expect(withRetry(final, { retryable: () => false })).rejects.toThrow("400");
    expect(final).toHaveBeenCalledTimes(1);

    const controller = new AbortController();
    const down = vi.fn(() => Promise.reject(new Error("down")));
    const result = withRetry(down, { signal: controller.signal });
    const aborted = expect(result).rejects.toThrow("stop");
    await vi.advanceTimersByTimeAsync(500);
    controller.abort(new Error("stop"));
    await aborted;
    expect(down).toHaveBeenCalledTimes(1);
  });
});
