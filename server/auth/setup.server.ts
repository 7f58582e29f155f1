/**
 * First run: an installation without an administrator prints a one-time link to its log at start-up (as
 * Ghost does), and /setup?token=… lets whoever can read that log create the first administrator. The
 * token is stored hashed, lives 24 hours, is replaced at each start while no administrator exists, and
 * is spent by the first successful set-up. `npm run admin:create` is the other way in.
 */
import crypto from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import pino from "pino";
import { getConfig } from "#server/config.server.ts";
import { getDb, type Database } from "#server/db/client.server.ts";
import { verification } from "#server/db/schema.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { getAuth } from "./auth.server.ts";
import { createAccount, findAccountByEmail, hasAdministrator } from "./accounts.server.ts";

export const SETUP_IDENTIFIER = "first-run-setup";
const SETUP_SECONDS = 24 * 60 * 60;

const digest = (token: string) => crypto.createHash("sha256").update(token).digest("base64url");

let announced: string | null = null;

/** The link this start announced, or null. */
export const firstRunSetupLink = () => announced;

/** Lines between two rules of ─ as wide as the longest line: plain text, for a person at a terminal. */
export function framed(lines: readonly string[]): string {
  const rule = "─".repeat(Math.max(...lines.map((line) => line.length)));
  return `\n${rule}\n${lines.join("\n")}\n${rule}\n\n`;
}

/**
 * Prints the link this start announced once more, framed, when there is one: server.js calls it after "serving
 * on", so that it is the last thing of the first start rather than one JSON line among the others (issue 46).
 * Through the log's own stream, which writes asynchronously: written to stdout apart, it would overtake the
 * lines still on their way.
 */
export function printFirstRunSetupLink(): void {
  if (!announced) return;
  const text = framed([
    "No administrator yet. Create the first one within 24 hours at:",
    announced,
    "(or run: npm run admin:create -- --email … --password …)",
  ]);
  const stream = (logger as unknown as Record<symbol, { write(text: string): unknown } | undefined>)[pino.symbols.streamSym];
  if (stream) stream.write(text);
  else process.stdout.write(text);
}

/** Call once at start-up (server/app.server.ts, prepare()). Does nothing once an administrator exists. */
export async function announceFirstRunSetup(db?: Database): Promise<string | null> {
  const database = db ?? (await getDb());
  announced = null;
  if (await hasAdministrator(database)) return null;
  const token = crypto.randomBytes(24).toString("base64url");
  await database.transaction(async (tx) => {
    await tx.delete(verification).where(eq(verification.identifier, SETUP_IDENTIFIER));
    await tx.insert(verification).values({
      id: crypto.randomUUID(),
      identifier: SETUP_IDENTIFIER,
      value: digest(token),
      expiresAt: new Date(Date.now() + SETUP_SECONDS * 1000),
    });
  });
  const link = `${getConfig().publicUrl}/setup?token=${token}`;
  logger.warn(`No administrator yet. Create the first one within 24 hours at ${link} (or run: npm run admin:create -- --email … --password …)`);
  announced = link;
  return link;
}

/** Whether the link is good: right token, not expired, and still no administrator. */
export async function setupTokenIsValid(db: Database, token: string): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const [row] = await db
    .select({ id: verification.id })
    .from(verification)
    .where(and(eq(verification.identifier, SETUP_IDENTIFIER), eq(verification.value, digest(token)), gt(verification.expiresAt, new Date())))
    .limit(1);
  return Boolean(row) && !(await hasAdministrator(db));
}

export type SetupResult = { ok: true } | { ok: false; code: "INVALID_TOKEN" | "ALREADY_REGISTERED" };

/** Creates the first administrator (confirmed e-mail) and spends the token; a second attempt finds it gone. */
export async function completeFirstRunSetup(db: Database, input: { token: string; email: string; password: string; fullName: string }): Promise<SetupResult> {
  if (!(await setupTokenIsValid(db, input.token))) return { ok: false, code: "INVALID_TOKEN" };
  if (await findAccountByEmail(db, input.email)) return { ok: false, code: "ALREADY_REGISTERED" };
  // Spending the token is the lock: of two simultaneous set-ups only one deletes the row.
  const spent = await db
    .delete(verification)
    .where(and(eq(verification.identifier, SETUP_IDENTIFIER), eq(verification.value, digest(input.token))))
    .returning({ id: verification.id });
  if (!spent.length) return { ok: false, code: "INVALID_TOKEN" };
  await createAccount(await getAuth(), db, { email: input.email, password: input.password, name: input.fullName, emailVerified: true, role: "admin" });
  logger.info("first administrator created through the set-up link");
  return { ok: true };
}
