/**
 * A server of its own for the account tests: a fresh DATA_DIR whose database already holds the personas a
 * test asks for (signed in through better-auth, cookies ready), optionally e-mail through a real SMTP
 * receiver, and the whole log output for the leak checks. No demo content unless asked (faster start).
 */
import { checkConfig } from "#server/config.server.ts";
import { openDatabase, type Database } from "#server/db/client.server.ts";
import { createAuth } from "#server/auth/auth.server.ts";
import { createPersona, type Persona, type PersonaSpec } from "#tests/helpers/auth.ts";
import { newDataDir, startServer, type RunningServer } from "#tests/e2e/support/server.ts";

export const E2E_SECRET = "e2e-account-tests-secret-9d4b2f7a1c6e8b3d5f0a2c4e6b8d1f3a";

export type AuthServer<K extends string> = RunningServer & { personas: Record<K, Persona> };

export async function startAuthServer<K extends string = never>({
  personas = {} as Record<K, PersonaSpec>,
  prepare,
  env = {},
  seed = false,
}: {
  personas?: Record<K, PersonaSpec>;
  /** Runs on the database after the personas are made, before the server starts. */
  prepare?: (db: Database, made: Record<K, Persona>) => Promise<void>;
  env?: Record<string, string>;
  seed?: boolean;
} = {}): Promise<AuthServer<K>> {
  const dataDir = newDataDir({ seeded: seed });
  const made = {} as Record<K, Persona>;
  const handle = openDatabase({ dataDir });
  try {
    await handle.migrate();
    // Session cookies are signed with the secret only, so the server below accepts these.
    const { config } = checkConfig({ DATA_DIR: dataDir, BETTER_AUTH_SECRET: E2E_SECRET, LOG_LEVEL: "silent" });
    const auth = createAuth({ db: handle.db, config });
    for (const [key, spec] of Object.entries(personas) as [K, PersonaSpec][]) made[key] = await createPersona(auth, handle.db, spec);
    await prepare?.(handle.db, made);
  } finally {
    await handle.close();
  }
  const server = await startServer({ DATA_DIR: dataDir, BETTER_AUTH_SECRET: E2E_SECRET, SEED_DEMO: seed ? "true" : "false", ...env });
  return Object.assign(server, { personas: made });
}

/** The cookie of a persona for a browser context. */
export function browserCookies(persona: Persona, url: string) {
  return persona.cookie.split("; ").map((pair) => {
    const i = pair.indexOf("=");
    return { name: pair.slice(0, i), value: pair.slice(i + 1), url };
  });
}

/** A form post as a browser sends it (same-origin Origin header), without following redirects. */
export function post(
  base: string,
  pathname: string,
  fields: Record<string, string | string[]>,
  { cookie, ip, origin = base }: { cookie?: string; ip?: string; origin?: string | null } = {},
) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const value of Array.isArray(v) ? v : [v]) body.append(k, value);
  const headers: Record<string, string> = {};
  if (origin) headers.origin = origin;
  if (cookie) headers.cookie = cookie;
  // server/app.server.ts trusts a proxy on loopback, so the test can stand for several visitors.
  if (ip) headers["x-forwarded-for"] = ip;
  return fetch(base + pathname, { method: "POST", body, headers, redirect: "manual" });
}

export function get(base: string, pathname: string, { cookie }: { cookie?: string } = {}) {
  return fetch(base + pathname, { headers: cookie ? { cookie } : {}, redirect: "manual" });
}

/** Set-Cookie pairs of a response, as a Cookie header. */
export function cookiesFrom(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="))
    .join("; ");
}
