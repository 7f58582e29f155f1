/**
 * Failed sign-ins per account, with a growing lock-out (issue 15; docs/decisions/0110-shared-rate-limits.md).
 *
 * better-auth already limits sign-ins per client address (RATE_LIMITS in auth.ts, 5 a minute); that does
 * nothing against many addresses guessing one account's password. Like Ghost's "user login" brute-force
 * protection, every account (its e-mail, normalised) gets 5 free attempts, then one attempt per lock-out,
 * the lock-out starting at 1 minute and doubling up to 1 hour. Signing in (or proving the password in any
 * other way, or resetting it by e-mail) forgets the account's failures.
 *
 * The same holds for an address that has no account — the counting never looks the account up — so the
 * answers never tell whether an account exists. Hooked into better-auth, it covers both our /auth form and
 * /api/auth/sign-in/email. Counters are shared through Redis when REDIS_URL is set (server/http/rate-limit.server.ts).
 */
import crypto from "node:crypto";
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { createBackoff, type Backoff, type RateLimitStoreOption } from "#server/http/rate-limit.server.ts";

export const SIGN_IN_PATH = "/sign-in/email";

export const ACCOUNT_SIGN_IN_LIMIT = {
  freeAttempts: 5,
  firstLockMs: 60_000,
  maxLockMs: 60 * 60_000,
  /** Counted attempts are remembered for a day from the first: longer than the climb to the 1-hour cap. */
  memoryMs: 24 * 60 * 60_000,
} as const;

/** public-site.md §8, sign-in, "too many requests". */
export const TOO_MANY_ATTEMPTS_MESSAGE = "محاولات كثيرة جداً. يرجى المحاولة لاحقاً";

/** The account an e-mail names, as better-auth finds it (case-insensitive), hashed: no address sits in Redis. */
export function accountKey(email: string): string {
  const normalised = email.normalize("NFKC").trim().toLowerCase();
  return crypto.createHash("sha256").update(normalised).digest("base64url");
}

export function createSignInLimit(store: RateLimitStoreOption): Backoff {
  return createBackoff({ name: "sign-in-account", ...ACCOUNT_SIGN_IN_LIMIT, store });
}

/** Answers that prove the password was right even though no session was made. */
const PASSWORD_PROVEN = new Set(["EMAIL_NOT_VERIFIED", "ACCOUNT_DISABLED"]);

const emailOf = (body: unknown) => {
  const email = (body as { email?: unknown } | null | undefined)?.email;
  return typeof email === "string" && email.length > 0 ? email : null;
};

/** Accounts whose attempt in flight armed their first lock-out: told to `onLockout` if that attempt fails too. */
const MAX_PENDING_LOCKOUTS = 10_000;

/**
 * better-auth hooks: the before hook counts the attempt (or refuses it), the after hook reads the outcome.
 * `onLockout(email)` hears each lock-out once, when the attempt that armed an account's first lock fails (the
 * audit log's one row per burst, not one per failure; issue 40, decision 0140).
 */
export function signInLimitHooks(limit: Backoff, onLockout?: (email: string) => Promise<void> | void) {
  const pending = new Set<string>();
  return {
    before: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== SIGN_IN_PATH) return;
      const email = emailOf(ctx.body);
      if (!email) return;
      const verdict = await limit.attempt(accountKey(email));
      if (verdict.allowed) {
        if (verdict.firstLock && onLockout && pending.size < MAX_PENDING_LOCKOUTS) pending.add(accountKey(email));
        return;
      }
      const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
      throw new APIError("TOO_MANY_REQUESTS", { code: "TOO_MANY_REQUESTS", message: TOO_MANY_ATTEMPTS_MESSAGE }, { "Retry-After": String(seconds) });
    }),
    after: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== SIGN_IN_PATH) return;
      const email = emailOf(ctx.body);
      if (!email) return;
      const key = accountKey(email);
      const returned: unknown = ctx.context.returned;
      const armed = pending.delete(key);
      if (!isAPIError(returned)) return limit.reset(key);
      // A wrong password, or an address with no account: the attempt stays counted.
      if (returned.statusCode === 401) {
        if (armed) await onLockout?.(email.normalize("NFKC").trim().toLowerCase());
        return;
      }
      const code = (returned.body as { code?: unknown } | undefined)?.code;
      if (typeof code === "string" && PASSWORD_PROVEN.has(code)) return limit.reset(key);
      // The password was not tested (a malformed request, a failure of ours): not the visitor's guess.
      return limit.refund(key);
    }),
  };
}
