/**
 * Issue 15: "in production with the outbox mailer, reset and invitation links are logged at info". Against
 * the built server in production without SMTP_URL (the outbox) and at the debug level: a password reset,
 * an invitation and a newsletter subscription write their mails to the outbox, and the log says where —
 * never the link or its token. (tests/e2e/auth/leaks.e2e.test.ts covers the same with SMTP.)
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { checkConfig } from "#server/config.server.ts";
import { readOutbox } from "#server/ops/mail.server.ts";
import { post, startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";

describe("no mail link in the log with the outbox mailer", () => {
  let server: AuthServer<"admin" | "reader">;
  let output = "";
  const links: string[] = [];

  beforeAll(async () => {
    server = await startAuthServer({
      personas: {
        admin: { email: "chief@outbox.test", password: "Ch1efPassword", role: "admin", name: "رئيسة التحرير" },
        reader: { email: "reader@outbox.test", password: "Read3rPassword", role: "reader" },
      },
      env: { LOG_LEVEL: "debug" },
    });
    const outbox = () => readOutbox(checkConfig({ DATA_DIR: server.dataDir }).config);
    const linkTo = (to: string, pathname: string) =>
      vi.waitFor(
        () => {
          const link = outbox()
            .filter((m) => m.to === to)
            .flatMap((m) => m.links ?? [])
            .find((l) => new URL(l).pathname === pathname);
          if (!link) throw new Error(`no mail to ${to} with a link to ${pathname} yet`);
          return link;
        },
        { timeout: 30_000, interval: 50 },
      );

    // The reset mail is sent after the answer (same timing for every address): wait for the outbox.
    expect((await post(server.url, "/auth/forgot", { email: "reader@outbox.test" }, { ip: "10.15.1.1" })).status).toBeLessThan(400);
    links.push(await linkTo("reader@outbox.test", "/auth/reset"));

    const invite = await post(
      server.url,
      "/admin/users",
      { intent: "invite", email: "reporter@outbox.test", fullName: "مراسل", role: "editor", permissions: ["content.write"] },
      { cookie: server.personas.admin.cookie },
    );
    expect(invite.status).toBe(200);
    links.push(await linkTo("reporter@outbox.test", "/auth/reset"));

    expect((await post(server.url, "/opinion", { intent: "newsletter", email: "subscriber@outbox.test" }, { ip: "10.15.1.2" })).status).toBe(200);
    const confirm = await vi.waitFor(
      () => {
        const link = outbox().find((m) => m.to === "subscriber@outbox.test")?.links?.[0];
        if (!link) throw new Error("no newsletter confirmation yet");
        return link;
      },
      { timeout: 30_000, interval: 50 },
    );
    links.push(confirm);

    await server.stop();
    output = server.output();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("wrote the three mails to the outbox and logged where each one is", () => {
    expect(links).toHaveLength(3);
    const written = output.split("\n").filter((line) => line.includes("mail written to outbox"));
    expect(written).toHaveLength(3);
    for (const line of written) {
      const entry = JSON.parse(line) as { level: number; file: string; id: string };
      expect(entry.level).toBe(30);
      expect(entry.file).toMatch(/outbox\/.+\.eml$/);
      expect(entry.id).toMatch(/\S/);
    }
  });

  it("logs no link and no token", () => {
    for (const link of links) {
      const url = new URL(link);
      const secrets = [link, url.search, ...[...url.searchParams.values()].filter((v) => v.length >= 16)];
      expect(secrets.length).toBeGreaterThan(2);
      for (const secret of secrets) expect(output.includes(secret), `${url.pathname}'s ${secret.slice(0, 6)}… in the log`).toBe(false);
    }
  });
});
