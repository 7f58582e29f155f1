/**
 * The better-auth instance: e-mail and password accounts, e-mail verification, password reset, database
 * sessions and rate limiting, all on our own tables (server/db/schema.server.ts) through the Drizzle adapter.
 * Nothing here hashes a password, signs a cookie or counts requests by hand: better-auth does.
 *
 * Mounted at /api/auth (app/routes/api/auth.$.ts). Our own pages (/auth, /auth/forgot, /auth/reset,
 * /auth/verify, /setup) call the same handler through server/auth/flows.server.ts, so a plain form post gets the
 * same rate limits, origin checks and cookies as a script would.
 */
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import type { Config } from "#server/config.server.ts";
import { getConfig } from "#server/config.server.ts";
import { getDb, type Database } from "#server/db/client.server.ts";
import { account, profiles, rateLimit, session, user, verification } from "#server/db/schema.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { authSecret } from "#server/ops/secrets.server.ts";
import { CLIENT_IP_HEADER } from "#server/content/views.server.ts";
import { languageOf, sendAccountMail } from "./emails.server.ts";
import { RESET_SECONDS, SESSION_SECONDS, VERIFICATION_SECONDS } from "./lifetimes.server.ts";
import { MEMORY_STORE, redisRateLimitStore } from "#server/http/rate-limit.server.ts";
import { ourOrigins } from "#server/http/request-guard.server.ts";
import { accountKey, ACCOUNT_SIGN_IN_LIMIT, createSignInLimit, signInLimitHooks } from "./sign-in-limit.server.ts";
import { recordAudit } from "#server/content/audit.server.ts";

export const AUTH_BASE_PATH = "/api/auth";
export const COOKIE_PREFIX = "sahara";

/**
 * Limits per client address and path (better-auth keys them by address + path), kept in the rate_limit table
 * so they hold across restarts and across processes. Windows in seconds. Sign-in is also limited per account,
 * with a growing lock-out (./sign-in-limit.ts).
 */
export const RATE_LIMITS = {
  "/sign-in/email": { window: 60, max: 5 },
  "/sign-up/email": { window: 60, max: 3 },
  "/request-password-reset": { window: 60 * 10, max: 3 },
  "/send-verification-email": { window: 60 * 10, max: 3 },
  "/reset-password": { window: 60, max: 5 },
  "/verify-email": { window: 60, max: 10 },
} as const;

export const ACCOUNT_DISABLED = "ACCOUNT_DISABLED";

export type AuthOptions = { db: Database; config: Config };

/** better-auth logs into pino, without the extra arguments (they can hold request data). */
function authLogger(config: Config) {
  return {
    level: config.LOG_LEVEL === "debug" || config.LOG_LEVEL === "trace" ? ("debug" as const) : ("warn" as const),
    log: (level: "debug" | "info" | "warn" | "error", message: string) => {
      const text = message.replace(/\s+Current list of trustedOrigins:.*$/s, "");
      if (level === "error") logger.error({ source: "better-auth" }, text);
      else if (level === "warn") logger.warn({ source: "better-auth" }, text);
      else logger.debug({ source: "better-auth" }, text);
    },
  };
}

export function createAuth({ db, config }: AuthOptions) {
  const secure = config.publicUrl.startsWith("https://");
  // Connected at the first sign-in, not here: scripts that make an instance (admin:create) never open Redis.
  const signInLimit = createSignInLimit(() => (config.REDIS_URL ? redisRateLimitStore(config.REDIS_URL) : MEMORY_STORE));
  return betterAuth({
    appName: config.SITE_NAME_FR,
    baseURL: config.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret: authSecret(config),
    telemetry: { enabled: false },
    logger: authLogger(config),
    database: drizzleAdapter(db, { provider: "pg", schema: { user, session, account, verification, rateLimit } }),
    // The site's origins: the public URL's, and without PUBLIC_URL its loopback names on the same port (ourOrigins).
    trustedOrigins: ourOrigins(config),
    // These answer with the session token itself; our pages read the session on the server (auth.api, which
    // this list does not affect), so no script in the browser needs them — not even an injected one.
    disabledPaths: ["/get-session", "/list-sessions"],
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      resetPasswordTokenExpiresIn: RESET_SECONDS,
      revokeSessionsOnPasswordReset: true,
      // Not awaited: the answer to a reset request takes the same time whether or not the address has an
      // account (the mail is only sent when it does). A failure is logged, never shown.
      sendResetPassword: ({ user: u, token }, request) => {
        void sendAccountMail(config, "reset", { to: u.email, token, lang: languageOf(request) }).catch((error) =>
          logger.error({ err: error }, "password reset e-mail failed"),
        );
        return Promise.resolve();
      },
      // Following a link sent to the address proves it is theirs: a reset (or an accepted invitation) confirms it.
      // It also lifts the account's sign-in lock-out: whoever someone else locked out gets back in this way.
      onPasswordReset: async ({ user: u }) => {
        await signInLimit.reset(accountKey(u.email));
        if (!u.emailVerified) await db.update(user).set({ emailVerified: true, updatedAt: new Date() }).where(eq(user.id, u.id));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: false,
      expiresIn: VERIFICATION_SECONDS,
      sendVerificationEmail: async ({ user: u, token }, request) => {
        await sendAccountMail(config, "verify", { to: u.email, token, lang: languageOf(request) });
      },
    },
    session: { expiresIn: SESSION_SECONDS, disableSessionRefresh: true },
    rateLimit: { enabled: true, storage: "database", window: 60, max: 100, customRules: RATE_LIMITS },
    // A lock-out is one audit row (decision 0140); the sign-in never fails for the log.
    hooks: signInLimitHooks(signInLimit, (email) =>
      recordAudit(db, { actor: null, action: "sign_in_lockout", details: { email, attempts: ACCOUNT_SIGN_IN_LIMIT.freeAttempts } }).catch((error: unknown) =>
        logger.warn({ err: error }, "audit: sign-in lock-out not recorded"),
      ),
    ),
    verification: { storeIdentifier: "hashed" },
    advanced: {
      cookiePrefix: COOKIE_PREFIX,
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure, path: "/" },
      // server/app.server.ts sets this header from req.ip (which honours `trust proxy`) and overwrites what a client sent.
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    databaseHooks: {
      user: {
        create: {
          // Every account has a profile; a new one is a reader until an administrator says otherwise.
          after: async (created) => {
            await db
              .insert(profiles)
              .values({ id: created.id, fullName: created.name?.trim() || null })
              .onConflictDoNothing();
          },
        },
      },
      session: {
        create: {
          // A disabled account cannot sign in, whatever the path to a new session.
          before: async (s) => {
            const [p] = await db.select({ disabled: profiles.disabled }).from(profiles).where(eq(profiles.id, s.userId)).limit(1);
            if (p?.disabled) throw new APIError("FORBIDDEN", { code: ACCOUNT_DISABLED, message: "This account is disabled" });
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

let instance: Promise<Auth> | undefined;

/** The process-wide instance, made on first use from the checked configuration and the database. */
export function getAuth(): Promise<Auth> {
  // A set-up that failed (the secret could not be stored: a full disk) is not kept: the next sign-in tries
  // again, so sign-in comes back once the cause is gone instead of staying broken until a restart.
  const made = (instance ??= getDb().then((db) => createAuth({ db, config: getConfig() })));
  made.catch(() => {
    if (instance === made) instance = undefined;
  });
  return made;
}

/** Tests and scripts that switch databases install their own instance (or reset to rebuild on next use). */
export function setAuth(auth: Auth | undefined) {
  instance = auth ? Promise.resolve(auth) : undefined;
}
