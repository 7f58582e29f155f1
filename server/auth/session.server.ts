/**
 * Who is asking, and may they? Every back-office loader and action calls one of the require* functions
 * itself; the admin layout's screens only explain the answer (loaders run in parallel, so a layout check
 * protects nothing).
 *
 * The order is back-office.md §4's guard order:
 *   no session cookie           → pages: redirect to /auth?redirectTo=<origin>;        actions and APIs: 401
 *   a cookie, no valid session  → cookies cleared; pages: /auth?expired=1&redirectTo=…; actions and APIs: 401
 *   not staff (or not admin)    → 403 "access-denied"
 *   missing the permission      → 403 "permission-needed"
 *   e-mail not confirmed        → 403 "confirm-email"
 * A state-changing request must also come from our own origin (403 "cross-origin") — checked first.
 */
import { data, redirect } from "react-router";
import { getSessionCookie } from "better-auth/cookies";
import { eq } from "drizzle-orm";
import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { profiles } from "#server/db/schema.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { fromOurOrigin, MUTATING_METHODS, ourOrigins } from "#server/http/request-guard.server.ts";
import { COOKIE_PREFIX, getAuth } from "./auth.server.ts";
import { displayName, initialsOf, safeAvatarUrl } from "./display.server.ts";
import { can, hasAccess, isAdmin, isStaff, type Access, type Permission } from "./permissions.server.ts";

export type GuardReason = "unauthenticated" | "access-denied" | "permission-needed" | "confirm-email" | "cross-origin";

export type SessionUser = {
  id: string;
  email: string;
  emailVerified: boolean;
  /** back-office.md §6 display name, and the letters of its generated avatar. */
  name: string;
  initials: string;
  avatarUrl: string | null;
  profile: { role: string; isAdmin: boolean; permissions: string[]; fullName: string | null; username: string | null; disabled: boolean };
  isAdmin: boolean;
  isStaff: boolean;
  session: { id: string; expiresAt: string };
};

type Lookup = { state: "none" } | { state: "invalid" } | { state: "valid"; user: SessionUser };

export function hasSessionCookie(request: Request): boolean {
  return getSessionCookie(request, { cookiePrefix: COOKIE_PREFIX }) !== null;
}

// The loaders of one request (root, layout, page) share one lookup.
const lookups = new WeakMap<Request, Promise<Lookup>>();

async function lookUp(request: Request): Promise<Lookup> {
  if (!hasSessionCookie(request)) return { state: "none" };
  const auth = await getAuth();
  const found = await auth.api.getSession({ headers: request.headers, query: { disableRefresh: true } });
  if (!found) return { state: "invalid" };
  const db = await getDb();
  const [p] = await db
    .select({
      role: profiles.role,
      isAdmin: profiles.isAdmin,
      permissions: profiles.permissions,
      fullName: profiles.fullName,
      username: profiles.username,
      avatarUrl: profiles.avatarUrl,
      disabled: profiles.disabled,
    })
    .from(profiles)
    .where(eq(profiles.id, found.user.id))
    .limit(1);
  const profile = p ?? { role: "reader", isAdmin: false, permissions: [], fullName: null, username: null, avatarUrl: null, disabled: false };
  // Disabling ends sessions; this covers a session that slipped through (for example a concurrent sign-in).
  if (profile.disabled) return { state: "invalid" };
  const name = displayName(profile, found.user.email);
  return {
    state: "valid",
    user: {
      id: found.user.id,
      email: found.user.email,
      emailVerified: Boolean(found.user.emailVerified),
      name,
      initials: initialsOf(name),
      avatarUrl: safeAvatarUrl(profile.avatarUrl ?? found.user.image),
      profile,
      isAdmin: isAdmin(profile),
      isStaff: isStaff(profile),
      session: { id: found.session.id, expiresAt: new Date(found.session.expiresAt).toISOString() },
    },
  };
}

function lookup(request: Request): Promise<Lookup> {
  let pending = lookups.get(request);
  if (!pending) {
    pending = lookUp(request);
    lookups.set(request, pending);
  }
  return pending;
}

/** The signed-in user, or null (no cookie: no database work at all). For pages that only adapt to a user. */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  try {
    const found = await lookup(request);
    return found.state === "valid" ? found.user : null;
  } catch (error) {
    // A public page still renders when the session store is unreachable; the visitor just looks signed out.
    logger.error({ err: error }, "session lookup failed");
    return null;
  }
}

/** Set-Cookie headers that remove the session cookies (an expired or revoked session). */
export async function clearSessionCookies(): Promise<Headers> {
  const ctx = await (await getAuth()).$context;
  const headers = new Headers();
  for (const cookie of [ctx.authCookies.sessionToken, ctx.authCookies.sessionData, ctx.authCookies.dontRememberToken]) {
    const a = cookie.attributes;
    headers.append(
      "Set-Cookie",
      `${cookie.name}=; Max-Age=0; Path=${a.path ?? "/"}; HttpOnly; SameSite=${String(a.sameSite ?? "lax").replace(/^./, (c) => c.toUpperCase())}${a.secure ? "; Secure" : ""}`,
    );
  }
  return headers;
}

type Mode = "page" | "api";

/** Pages are GET requests of a document or of its data; anything else (actions, API calls) gets statuses. */
function modeOf(request: Request, explicit?: Mode): Mode {
  if (explicit) return explicit;
  return request.method === "GET" || request.method === "HEAD" ? "page" : "api";
}

/** Where the visitor was going: the path and query of the page (never another site). */
export function originPath(request: Request): string {
  const url = new URL(request.url);
  return url.pathname.replace(/\.data$/, "").replace(/\/_root$/, "/") + url.search.replace(/([?&])_routes=[^&]*&?/, "$1").replace(/[?&]$/, "");
}

const STATUS_TEXT: Record<number, string> = { 401: "Unauthorized", 403: "Forbidden" };

function deny(reason: GuardReason, status: number, headers?: Headers): never {
  throw data({ reason }, { status, statusText: STATUS_TEXT[status], headers });
}

/**
 * A state-changing request must come from a page of ours (fromOurOrigin, the one rule that server/app.server.ts also
 * applies to every request before any route runs).
 */
export function assertSameOrigin(request: Request) {
  if (!MUTATING_METHODS.has(request.method)) return;
  if (!fromOurOrigin(request.headers.get("origin"), request.headers.get("referer"), ourOrigins(getConfig()))) deny("cross-origin", 403);
}

/** A signed-in user with a valid session (any role). */
export async function requireUser(request: Request, options: { mode?: Mode } = {}): Promise<SessionUser> {
  assertSameOrigin(request);
  const mode = modeOf(request, options.mode);
  const found = await lookup(request);
  if (found.state === "none") {
    if (mode === "page") throw redirect(`/auth?redirectTo=${encodeURIComponent(originPath(request))}`);
    deny("unauthenticated", 401);
  }
  if (found.state === "invalid") {
    const headers = await clearSessionCookies();
    if (mode === "page") throw redirect(`/auth?expired=1&redirectTo=${encodeURIComponent(originPath(request))}`, { headers });
    deny("unauthenticated", 401, headers);
  }
  return found.user;
}

/** The guard order of back-office.md §4 for one requirement. */
export async function requireAccess(request: Request, access: Access, options: { mode?: Mode } = {}): Promise<SessionUser> {
  const user = await requireUser(request, options);
  const baseline = access === "admin" ? user.isAdmin : user.isStaff;
  if (!baseline) deny("access-denied", 403);
  if (!hasAccess(user.profile, access)) deny("permission-needed", 403);
  if (!user.emailVerified) deny("confirm-email", 403);
  return user;
}

/** Any member of staff (admin or editor): the back-office's own door. */
export const requireStaff = (request: Request, options?: { mode?: Mode }) => requireAccess(request, "staff", options);

/** An administrator (profile role `admin` or `is_admin`). */
export const requireAdmin = (request: Request, options?: { mode?: Mode }) => requireAccess(request, "admin", options);

/** A member of staff holding `permission` (admins hold them all). */
export const requirePermission = (request: Request, permission: Permission, options?: { mode?: Mode }) => requireAccess(request, permission, options);

/** For a page that adapts to what its user may do. */
export function userCan(user: SessionUser, permission: Permission): boolean {
  return can(user.profile, permission);
}
