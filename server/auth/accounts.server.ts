/**
 * Accounts and profiles: the queries of the staff screen, the first administrator and invitations. Users,
 * passwords and tokens are created through better-auth's own adapter (so its hashing, hooks and token
 * storage apply); profile rows (role, is_admin, permissions) are ours.
 */
import crypto from "node:crypto";
import { and, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { profiles, session, user } from "#server/db/schema.server.ts";
import type { Auth } from "./auth.server.ts";
import { INVITATION_SECONDS } from "./lifetimes.server.ts";
import { ROLE_PRESETS, type Permission, type Role, type StaffRole } from "./permissions.server.ts";
import { recordAudit } from "#server/content/audit.server.ts";

export type AccountRow = {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  createdAt: Date;
  role: string;
  isAdmin: boolean;
  permissions: string[];
  fullName: string | null;
  username: string | null;
  avatarUrl: string | null;
  disabled: boolean;
};

const accountColumns = {
  id: user.id,
  email: user.email,
  name: user.name,
  emailVerified: user.emailVerified,
  createdAt: user.createdAt,
  // An account made before its profile existed reads as a reader.
  role: sql<string>`coalesce(${profiles.role}, 'reader')`,
  isAdmin: sql<boolean>`coalesce(${profiles.isAdmin}, false)`,
  permissions: sql<string[]>`coalesce(${profiles.permissions}, '{}'::text[])`,
  fullName: profiles.fullName,
  username: profiles.username,
  avatarUrl: profiles.avatarUrl,
  disabled: sql<boolean>`coalesce(${profiles.disabled}, false)`,
};

export async function findAccountById(db: Database, id: string): Promise<AccountRow | null> {
  const [row] = await db.select(accountColumns).from(user).leftJoin(profiles, eq(profiles.id, user.id)).where(eq(user.id, id)).limit(1);
  return row ?? null;
}

export async function findAccountByEmail(db: Database, email: string): Promise<AccountRow | null> {
  const [row] = await db
    .select(accountColumns)
    .from(user)
    .leftJoin(profiles, eq(profiles.id, user.id))
    .where(eq(user.email, email.trim().toLowerCase()))
    .limit(1);
  return row ?? null;
}

/** Staff first (admins, then editors, then writers), then readers; newest first within each. */
export async function listAccounts(db: Database, { limit = 200 }: { limit?: number } = {}): Promise<AccountRow[]> {
  const rank = sql`case when ${profiles.role} = 'admin' or ${profiles.isAdmin} then 0 when ${profiles.role} = 'editor' then 1 when ${profiles.role} = 'writer' then 2 else 3 end`;
  return db.select(accountColumns).from(user).leftJoin(profiles, eq(profiles.id, user.id)).orderBy(rank, desc(user.createdAt)).limit(limit);
}

/** True when at least one enabled administrator exists. */
export async function hasAdministrator(db: Database): Promise<boolean> {
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(or(eq(profiles.role, "admin"), eq(profiles.isAdmin, true)), eq(profiles.disabled, false)))
    .limit(1);
  return Boolean(row);
}

/** Enabled administrators other than `exceptId` (so the last one cannot be demoted or disabled). */
export async function countOtherAdministrators(db: Database, exceptId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(profiles)
    .where(and(or(eq(profiles.role, "admin"), eq(profiles.isAdmin, true)), eq(profiles.disabled, false), ne(profiles.id, exceptId)));
  return Number(row?.n ?? 0);
}

async function upsertProfile(db: Database, id: string, values: Partial<typeof profiles.$inferInsert>) {
  await db
    .insert(profiles)
    .values({ id, ...values })
    .onConflictDoUpdate({ target: profiles.id, set: { ...values, updatedAt: new Date() } });
}

/**
 * Sets role and permissions. `is_admin` follows the role, so "admin" has one meaning on this screen. With the
 * account that made the change, an audit row is written in the same transaction (issue 40, decision 0140).
 */
export async function setAccess(
  db: Database,
  id: string,
  { role, permissions }: { role: Role; permissions: readonly Permission[] },
  changedBy?: { id: string; email: string },
) {
  const granted = [...new Set(permissions)].sort();
  await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Database;
    await upsertProfile(tx, id, { role, isAdmin: role === "admin", permissions: granted });
    if (changedBy) await recordAudit(tx, { actor: changedBy, action: "permissions", details: { account_id: id, role, permissions: granted } });
  });
}

/**
 * Disabling ends every session of the account at once; sign-in is refused while it stays disabled. With the account
 * that made the change, an audit row in the same transaction (issue 40).
 */
export async function setDisabled(db: Database, id: string, disabled: boolean, changedBy?: { id: string; email: string }) {
  await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Database;
    await upsertProfile(tx, id, { disabled });
    if (disabled) await tx.delete(session).where(eq(session.userId, id));
    if (changedBy) await recordAudit(tx, { actor: changedBy, action: disabled ? "account_disabled" : "account_enabled", details: { account_id: id } });
  });
}

export async function deleteSessionsOf(db: Database, ids: string[]) {
  if (ids.length) await db.delete(session).where(inArray(session.userId, ids));
}

export type NewAccount = {
  email: string;
  name?: string;
  /** Omitted for an invitation: the invitee chooses it through the link. */
  password?: string;
  emailVerified: boolean;
  role: Role;
  permissions?: readonly Permission[];
};

/** Creates a user (and its credential account when a password is given) through better-auth, then its profile. */
export async function createAccount(auth: Auth, db: Database, input: NewAccount, createdBy?: { id: string; email: string }): Promise<{ id: string }> {
  const ctx = await auth.$context;
  const email = input.email.trim().toLowerCase();
  const name = input.name?.trim() || email.split("@")[0];
  const created = await ctx.internalAdapter.createUser({ email, name, emailVerified: input.emailVerified }, { method: "email-password" });
  if (!created) throw new Error("could not create the user");
  if (input.password) {
    const hash = await ctx.password.hash(input.password);
    await ctx.internalAdapter.linkAccount({ userId: created.id, providerId: "credential", accountId: created.id, password: hash });
  }
  const permissions = [...new Set(input.permissions ?? [])].sort();
  await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Database;
    await upsertProfile(tx, created.id, { fullName: input.name?.trim() || null, role: input.role, isAdmin: input.role === "admin", permissions });
    // An account given its rights by someone (an invitation) is a permission change of its own (issue 40).
    if (createdBy)
      await recordAudit(tx, { actor: createdBy, action: "account_invited", details: { account_id: created.id, email, role: input.role, permissions } });
  });
  return { id: created.id };
}

/** Sets (or replaces) the password of an existing account through better-auth's hashing. */
export async function setPassword(auth: Auth, userId: string, password: string) {
  const ctx = await auth.$context;
  const hash = await ctx.password.hash(password);
  const existing = await ctx.internalAdapter.findAccounts(userId);
  if (existing.some((a) => a.providerId === "credential")) await ctx.internalAdapter.updatePassword(userId, hash);
  else await ctx.internalAdapter.linkAccount({ userId, providerId: "credential", accountId: userId, password: hash });
}

export async function markEmailVerified(db: Database, userId: string) {
  await db.update(user).set({ emailVerified: true, updatedAt: new Date() }).where(eq(user.id, userId));
}

/**
 * An invitation link is a password-reset token of better-auth with a week's life: following it, the invitee
 * sets a password through the same reset endpoint, which spends the token (and confirms the address).
 */
export async function createInvitationToken(auth: Auth, userId: string): Promise<string> {
  const ctx = await auth.$context;
  const token = crypto.randomBytes(24).toString("base64url");
  await ctx.internalAdapter.createVerificationValue({
    identifier: `reset-password:${token}`,
    value: userId,
    expiresAt: new Date(Date.now() + INVITATION_SECONDS * 1000),
  });
  return token;
}

/**
 * `npm run user:create -- --role writer|editor|admin` (issue 40): makes `email` a confirmed, enabled member of staff
 * with the ready-made role's permissions (ROLE_PRESETS) — creating the account when it does not exist (a password
 * is then required), setting the password when one is given, and otherwise replacing its role and permissions.
 */
export async function ensureStaffAccount(
  auth: Auth,
  db: Database,
  input: { email: string; password?: string; name?: string; role: StaffRole },
): Promise<"created" | "updated"> {
  const permissions = [...ROLE_PRESETS[input.role]];
  const existing = await findAccountByEmail(db, input.email);
  if (!existing) {
    if (!input.password) throw new Error(`a new ${input.role === "admin" ? "administrator" : input.role} needs --password`);
    await createAccount(auth, db, { email: input.email, password: input.password, name: input.name, emailVerified: true, role: input.role, permissions });
    return "created";
  }
  if (input.password) await setPassword(auth, existing.id, input.password);
  await markEmailVerified(db, existing.id);
  await setAccess(db, existing.id, { role: input.role, permissions });
  await setDisabled(db, existing.id, false);
  if (input.name?.trim()) await db.update(profiles).set({ fullName: input.name.trim(), updatedAt: new Date() }).where(eq(profiles.id, existing.id));
  return "updated";
}

/**
 * `npm run admin:create`: makes `email` a confirmed, enabled administrator — creating the account when it
 * does not exist (a password is then required), setting the password when one is given.
 */
export async function ensureAdministrator(
  auth: Auth,
  db: Database,
  input: { email: string; password?: string; name?: string },
): Promise<"created" | "promoted"> {
  const existing = await findAccountByEmail(db, input.email);
  if (!existing) {
    if (!input.password) throw new Error("a new administrator needs --password");
    await createAccount(auth, db, { email: input.email, password: input.password, name: input.name, emailVerified: true, role: "admin" });
    return "created";
  }
  if (input.password) await setPassword(auth, existing.id, input.password);
  await markEmailVerified(db, existing.id);
  await setAccess(db, existing.id, { role: "admin", permissions: [] });
  await setDisabled(db, existing.id, false);
  if (input.name?.trim()) await db.update(profiles).set({ fullName: input.name.trim(), updatedAt: new Date() }).where(eq(profiles.id, existing.id));
  return "promoted";
}
