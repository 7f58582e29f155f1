/**
 * No password, password hash, session token or secret in any log line of the server or in anything sent to
 * the browser, after a full round of account traffic (sign-up, verification, sign-in, a wrong password,
 * reset, sign-out) with e-mail going out over SMTP.
 */
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "#server/db/client.server.ts";
import { account, user } from "#server/db/schema.server.ts";
import { startSmtpReceiver } from "#tests/helpers/smtp.ts";
import { projectRoot } from "#tests/e2e/support/server.ts";
import { cookiesFrom, E2E_SECRET, get, post, startAuthServer, type AuthServer } from "./support.ts";

type Smtp = Awaited<ReturnType<typeof startSmtpReceiver>>;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe("credentials stay out of logs and pages", () => {
  let smtp: Smtp;
  let server: AuthServer<never>;
  let output = "";
  const email = "careful@leaks.test";
  const passwords = ["Careful-Passw0rd", "Wrong-Passw0rd-9", "Renewed-Passw0rd"];
  const sessionCookies: string[] = [];
  const linkTokens: string[] = [];
  const pages: string[] = [];
  let hashes: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startAuthServer({ env: { SMTP_URL: smtp.url, LOG_LEVEL: "debug" } });
    const base = server.url;
    const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

    await post(base, "/auth", { mode: "signUp", email, password: passwords[0] }, { ip: "10.4.0.1" });
    const verifyMail = await smtp.waitFor(email);
    const verifyLink = verifyMail.links.find((l) => l.includes("/auth/verify?"))!;
    linkTokens.push(tokenOf(verifyLink));
    await get(base, new URL(verifyLink).pathname + new URL(verifyLink).search);

    const first = await post(base, "/auth", { mode: "signIn", email, password: passwords[0] }, { ip: "10.4.0.2" });
    sessionCookies.push(cookiesFrom(first));
    pages.push(await (await get(base, "/", { cookie: sessionCookies[0] })).text());
    pages.push(await (await get(base, "/admin", { cookie: sessionCookies[0] })).text());
    pages.push(await (await post(base, "/auth", { mode: "signIn", email, password: passwords[1] }, { ip: "10.4.0.3" })).text());

    await post(base, "/auth/forgot", { email }, { ip: "10.4.0.4" });
    const resetLink = await vi.waitFor(
      () => {
        const link = smtp.messages.flatMap((m) => m.links).find((l) => l.includes("/auth/reset?"));
        if (!link) throw new Error("no reset e-mail yet");
        return link;
      },
      { timeout: 15_000, interval: 50 },
    );
    linkTokens.push(tokenOf(resetLink));
    pages.push(await (await get(base, new URL(resetLink).pathname + new URL(resetLink).search)).text());
    await post(base, "/auth/reset", { token: tokenOf(resetLink), password: passwords[2], confirm: passwords[2] }, { ip: "10.4.0.5" });

    const second = await post(base, "/auth", { mode: "signIn", email, password: passwords[2] }, { ip: "10.4.0.6" });
    sessionCookies.push(cookiesFrom(second));
    await post(base, "/auth/sign-out", { mode: "redirect" }, { cookie: sessionCookies[1] });

    await server.stop();
    output = server.output();
    const handle = openDatabase({ dataDir: server.dataDir });
    try {
      const rows = await handle.db.select({ hash: account.password }).from(account).innerJoin(user, eq(user.id, account.userId)).where(eq(user.email, email));
      hashes = rows.map((r) => r.hash).filter((h): h is string => Boolean(h));
    } finally {
      await handle.close();
    }
  });

  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  const secrets = () => {
    const tokens = sessionCookies.flatMap((c) => {
      const value = c.split("=").slice(1).join("=");
      return [value, decodeURIComponent(value), decodeURIComponent(value).split(".")[0]];
    });
    return { passwords, hashes, "session tokens": tokens, "link tokens": linkTokens, secret: [E2E_SECRET] };
  };

  it("went through the whole round (so the checks below have something to find)", () => {
    expect(sessionCookies.every((c) => /^sahara\.session_token=.{20,}/.test(c))).toBe(true);
    expect(hashes.length).toBe(1);
    expect(linkTokens.length).toBe(2);
    expect(output).toMatch(/serving on/);
    expect(output).toMatch(/"mail sent"/);
  });

  it("writes none of them to the log", () => {
    for (const [kind, values] of Object.entries(secrets())) {
      for (const value of values) expect(output.includes(value), `a ${kind.replace(/s$/, "")} (${value.slice(0, 4)}…) in the log`).toBe(false);
    }
    // Not even a hash of the scrypt shape better-auth stores (salt:key in hex).
    expect(output).not.toMatch(/[0-9a-f]{32}:[0-9a-f]{128}/);
  });

  it("sends none of them in a page", () => {
    for (const html of pages) {
      for (const [kind, values] of Object.entries(secrets())) {
        // A reset page carries its own link token in its form, by design; nothing else may appear.
        for (const value of kind === "link tokens" ? [] : values) expect(html.includes(value), `a ${kind} in a page`).toBe(false);
      }
    }
  });

  it("ships no server-side authentication code or secret in the client assets", () => {
    const files = filesUnder(path.join(projectRoot, process.env.BUILD_DIR ?? "build", "client"));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files.filter((f) => /\.(js|css|html|json)$/.test(f))) {
      const content = fs.readFileSync(file, "utf8");
      for (const marker of [
        E2E_SECRET,
        "BETTER_AUTH_SECRET",
        "FACEBOOK_PAGE_TOKEN",
        "internalAdapter",
        "drizzle-orm",
        "scrypt",
        "sendResetPassword",
        ".auth-secret",
      ]) {
        expect(content.includes(marker), `${marker} in ${path.relative(projectRoot, file)}`).toBe(false);
      }
    }
  });
});
