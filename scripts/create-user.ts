/**
 * `npm run user:create -- --email reporter@example.org --password 'S3cret-pass' --role writer|editor|admin [--name 'Full Name']`
 *
 * For operators and tests (issue 40, decision 0137): creates a confirmed member of staff with a ready-made role
 * (ROLE_PRESETS in server/auth/permissions.server.ts: a writer writes and submits, an editor also publishes, edits
 * others' items and manages tags, an administrator holds every permission), or gives an existing account that role
 * (confirmed and enabled again, its permissions replaced by the role's; its password set when --password is given).
 * Uses the configured database (PGlite in DATA_DIR/db, or PostgreSQL at DATABASE_URL); with PGlite, stop the server
 * first. The password is never printed. A bad e-mail, role or password: exit code 2 and what is wrong; a failure: 1.
 */
import { parseArgs } from "node:util";
import { z } from "zod/mini";
import { getConfig } from "#server/config.server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { createAuth } from "#server/auth/auth.server.ts";
import { ensureStaffAccount } from "#server/auth/accounts.server.ts";
import { isStaffRole, ROLE_PRESETS } from "#server/auth/permissions.server.ts";
import { SignUpSchema, validate } from "#domain/schemas/auth.ts";
import { translate } from "#server/http/i18n.server.ts";

const ROLE_NAMES = Object.keys(ROLE_PRESETS).join("|");
const usage = `usage: npm run user:create -- --email <address> --password <password> --role ${ROLE_NAMES} [--name <full name>]`;

function fail(lines: string[]): never {
  for (const line of lines) console.error(line);
  console.error(usage);
  process.exit(2);
}

let values: { email?: string; password?: string; role?: string; name?: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: { email: { type: "string" }, password: { type: "string" }, role: { type: "string" }, name: { type: "string" }, help: { type: "boolean" } },
    strict: true,
  }));
} catch (error) {
  fail([`user:create: ${error instanceof Error ? error.message : String(error)}`]);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const problems: string[] = [];
if (!values.email) problems.push("--email is required");
if (!values.role) problems.push(`--role is required (${ROLE_NAMES})`);
else if (!isStaffRole(values.role)) problems.push(`role: unknown role "${values.role}" (one of ${ROLE_NAMES})`);
if (values.email) {
  // The sign-up rules apply (a valid address; at least 8 characters, upper and lower case, a digit); without --password
  // only the e-mail is checked (an existing account keeps its password).
  const checked = validate(values.password === undefined ? z.object({ email: SignUpSchema.shape.email }) : SignUpSchema, {
    email: values.email,
    password: values.password,
    fullName: values.name ?? "",
  });
  if (!checked.ok)
    for (const [field, key] of Object.entries(checked.errors)) problems.push(`${field}: ${translate("en", key ?? "")} (${translate("ar", key ?? "")})`);
}
if (problems.length || !values.email || !isStaffRole(values.role)) fail(problems);
const role = values.role;

const config = getConfig();
const handle = openDatabase({ url: config.drivers.database === "postgres" ? config.DATABASE_URL : undefined, dataDir: config.dataDir });
try {
  await handle.migrate();
  const auth = createAuth({ db: handle.db, config });
  const email = values.email.trim().toLowerCase();
  const outcome = await ensureStaffAccount(auth, handle.db, { email, password: values.password, name: values.name, role });
  const permissions = ROLE_PRESETS[role].length ? ROLE_PRESETS[role].join(", ") : "every permission";
  console.log(
    `user:create: ${email} ${outcome === "created" ? "created" : "updated"} as a confirmed ${role} (${permissions})${values.password && outcome === "updated" ? " (password set)" : ""}`,
  );
} catch (error) {
  console.error("user:create failed:", error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await handle.close();
}
