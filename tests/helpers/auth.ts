/**
 * For tests and fixtures only: people with known roles and ready session cookies, made straight in a
 * database through better-auth (the same hashing and signed cookies the server uses), so a test does not
 * have to sign in through the rate-limited form for every persona.
 */
import { eq } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { session, user } from "#server/db/schema.server.ts";
import type { Auth } from "#server/auth/auth.server.ts";
import { createAccount } from "#server/auth/accounts.server.ts";
import type { Permission, Role } from "#server/auth/permissions.server.ts";

/**
 * The rights migration 0019 gave every account that held content.write before issue 40 (decision 0137): a persona
 * standing for one of today's editors holds them too, so a test of something else keeps its meaning.
 */
export const ISSUE40_RIGHTS = ["content.publish", "content.others", "tags.manage"] as const satisfies readonly Permission[];

export type PersonaSpec = { email: string; password: string; role: Role; permissions?: Permission[]; emailVerified?: boolean; name?: string };
export type Persona = PersonaSpec & { id: string; cookie: string };

/** The `name=value` pairs of a response's Set-Cookie headers, ready for a Cookie header. */
export function cookieHeaderOf(setCookies: string[]): string {
  return setCookies
    .map((c) => c.split(";")[0].trim())
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
}

/** Creates the account (confirmed), signs it in through better-auth's API, then applies `emailVerified`. */
export async function createPersona(auth: Auth, db: Database, spec: PersonaSpec): Promise<Persona> {
  const { id } = await createAccount(auth, db, {
    email: spec.email,
    password: spec.password,
    name: spec.name,
    emailVerified: true,
    role: spec.role,
    permissions: spec.permissions ?? [],
  });
  const { headers } = await auth.api.signInEmail({ body: { email: spec.email, password: spec.password }, returnHeaders: true });
  const cookie = cookieHeaderOf(headers.getSetCookie());
  if (!cookie) throw new Error(`no session cookie for ${spec.email}`);
  if (spec.emailVerified === false) await db.update(user).set({ emailVerified: false }).where(eq(user.id, id));
  return { ...spec, id, cookie };
}

/** Moves the end of every session of a user (to test the expiry warning or an expired session). */
export async function setSessionExpiry(db: Database, userId: string, expiresAt: Date) {
  await db.update(session).set({ expiresAt }).where(eq(session.userId, userId));
}
