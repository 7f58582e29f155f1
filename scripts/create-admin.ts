/**
 * `npm run admin:create -- --email owner@example.org --password 'S3cret-pass' [--name 'Full Name']`
 *
 * Creates a confirmed administrator, or promotes (and confirms, and re-enables) an existing account; with
 * --password the account's password is set too. Uses the configured database (PGlite in DATA_DIR/db, or
 * PostgreSQL at DATABASE_URL). With PGlite, stop the server first: one process at a time may open it.
 * The password is never printed.
 */
import { parseArgs } from "node:util";
import { z } from "zod/mini";
import { getConfig } from "#server/config.server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { createAuth } from "#server/auth/auth.server.ts";
import { ensureAdministrator } from "#server/auth/accounts.server.ts";
import { SignUpSchema, validate } from "#domain/schemas/auth.ts";
import { translate } from "#server/http/i18n.server.ts";

const usage = "usage: npm run admin:create -- --email <address> [--password <password>] [--name <full name>]";

const { values } = parseArgs({ options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" } }, strict: true });
if (!values.email) {
  console.error(usage);
  process.exit(2);
}
// The sign-up rules apply (at least 8 characters, upper and lower case, a digit); without --password only the e-mail is checked.
const checked = validate(values.password === undefined ? z.object({ email: SignUpSchema.shape.email }) : SignUpSchema, {
  email: values.email,
  password: values.password,
  fullName: values.name ?? "",
});
if (!checked.ok) {
  for (const [field, key] of Object.entries(checked.errors)) console.error(`${field}: ${translate("en", key ?? "")} (${translate("ar", key ?? "")})`);
  process.exit(2);
}

const config = getConfig();
const handle = openDatabase({ url: config.drivers.database === "postgres" ? config.DATABASE_URL : undefined, dataDir: config.dataDir });
try {
  await handle.migrate();
  const auth = createAuth({ db: handle.db, config });
  const email = String(checked.data.email);
  const outcome = await ensureAdministrator(auth, handle.db, { email, password: values.password, name: values.name });
  console.log(
    `admin:create: ${email} ${outcome === "created" ? "created as a confirmed administrator" : "is now a confirmed administrator"}${values.password && outcome === "promoted" ? " (password set)" : ""}`,
  );
} catch (error) {
  console.error("admin:create failed:", error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await handle.close();
}
