/**
 * The account e-mails through a real SMTP receiver, against the built server started with SMTP_URL:
 * verification, password reset (once, then spent), invitation, and disabling an account.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSmtpReceiver } from "#tests/helpers/smtp.ts";
import { cookiesFrom, get, post, startAuthServer, type AuthServer } from "./support.ts";

type Smtp = Awaited<ReturnType<typeof startSmtpReceiver>>;

describe("account e-mails (SMTP)", () => {
  let smtp: Smtp;
  let server: AuthServer<"admin">;
  let base: string;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startAuthServer({
      personas: { admin: { email: "chief@mail.test", password: "Ch1efPassword", role: "admin", name: "رئيس التحرير" } },
      env: { SMTP_URL: smtp.url },
    });
    base = server.url;
  });

  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  const linkIn = (mail: { links: string[] }, pathname: string) => {
    const link = mail.links.find((l) => l.startsWith(`${base}${pathname}?`));
    expect(link, `a link to ${pathname} in ${mail.links.join(", ")}`).toBeTruthy();
    return new URL(link!);
  };

  it("sends a verification e-mail on sign-up whose link confirms the account", async () => {
    const email = "new.member@mail.test";
    const signUp = await post(base, "/auth", { mode: "signUp", fullName: "عضو جديد", email, password: "Memb3rPassword" }, { ip: "10.1.0.1" });
    expect(signUp.status).toBe(302);
    expect(signUp.headers.get("location")).toBe("/auth?notice=registered");
    const notice = await (await get(base, "/auth?notice=registered")).text();
    expect(notice).toContain("تم إنشاء الحساب. يرجى التحقق من بريدك الإلكتروني لتفعيل الحساب.");

    const mail = await smtp.waitFor(email);
    expect(mail.subject.replace(/\s/g, "")).toContain("تأكيدبريدكالإلكتروني");
    const link = linkIn(mail, "/auth/verify");

    // Before the link: refused with the spec's message.
    const early = await post(base, "/auth", { mode: "signIn", email, password: "Memb3rPassword" }, { ip: "10.1.0.2" });
    expect(early.status).toBe(403);
    expect(await early.text()).toContain("يرجى تأكيد البريد الإلكتروني");

    const landing = await get(base, link.pathname + link.search);
    expect(landing.status).toBe(200);
    expect(await landing.text()).toContain('data-testid="verify-verified"');

    const signIn = await post(base, "/auth", { mode: "signIn", email, password: "Memb3rPassword" }, { ip: "10.1.0.3" });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get("location")).toBe("/admin");
    expect(cookiesFrom(signIn)).toMatch(/^sahara\.session_token=/);
  });

  it("rejects a forged verification link", async () => {
    const res = await get(base, "/auth/verify?token=eyJhbGciOiJIUzI1NiJ9.e30.forged");
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('data-testid="verify-invalid"');
  });

  it("resets a password with a link that works once and then expires", async () => {
    const email = "new.member@mail.test";
    const ask = await post(base, "/auth/forgot", { email }, { ip: "10.1.0.4" });
    expect(ask.status).toBe(200);
    const answer = await ask.text();
    expect(answer).toContain('data-testid="notice-reset-sent"');

    // The first message to this address was the verification; wait until the reset one is in the receiver.
    const mail = await vi.waitFor(
      () => {
        const found = smtp.messages.filter((m) => m.to.includes(email)).find((m) => m.links.some((l) => l.includes("/auth/reset?")));
        if (!found) throw new Error("no reset e-mail yet");
        return found;
      },
      { timeout: 15_000, interval: 50 },
    );
    const link = linkIn(mail, "/auth/reset");
    const token = link.searchParams.get("token")!;

    const form = await get(base, link.pathname + link.search);
    expect(form.status).toBe(200);
    // The token in the address never goes to another site (browsers apply the last policy of the header).
    expect(form.headers.get("referrer-policy")).toMatch(/(^|,\s*)same-origin$/);
    expect(form.headers.get("cache-control")).toBe("no-store");
    expect(await form.text()).toContain('name="token"');

    const done = await post(base, "/auth/reset", { token, password: "Fr3shPassword", confirm: "Fr3shPassword" }, { ip: "10.1.0.5" });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/auth?notice=reset");

    const again = await post(base, "/auth/reset", { token, password: "Oth3rPassword", confirm: "Oth3rPassword" }, { ip: "10.1.0.5" });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('data-testid="reset-invalid"');
    const reopened = await get(base, link.pathname + link.search);
    expect(reopened.status).toBe(400);

    expect((await post(base, "/auth", { mode: "signIn", email, password: "Memb3rPassword" }, { ip: "10.1.0.6" })).status).toBe(401);
    expect((await post(base, "/auth", { mode: "signIn", email, password: "Fr3shPassword" }, { ip: "10.1.0.6" })).status).toBe(302);
  });

  it("answers a reset request for an unknown address exactly like a known one, and sends nothing", async () => {
    const before = smtp.messages.length;
    const res = await post(base, "/auth/forgot", { email: "nobody@mail.test" }, { ip: "10.1.0.7" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('data-testid="notice-reset-sent"');
    // A reset asked next for a known address is the marker: once its e-mail is in, one for the unknown address,
    // had it been sent, would have been sent before it (no fixed wait for something that must not come).
    await post(base, "/auth/forgot", { email: "chief@mail.test" }, { ip: "10.1.0.70" });
    await vi.waitFor(() => expect(smtp.messages.some((m) => m.to.includes("chief@mail.test"))).toBe(true), { timeout: 15_000, interval: 50 });
    expect(smtp.messages.slice(before).map((m) => m.to)).toEqual([["chief@mail.test"]]);
  });

  it("invites a member of staff by e-mail; the link sets a password; disabling the account ends its session and refuses sign-in", async () => {
    const admin = server.personas.admin.cookie;
    const email = "reporter@mail.test";
    const invite = await post(
      base,
      "/admin/users",
      { intent: "invite", email, fullName: "مراسل", role: "editor", permissions: ["content.write", "contacts.manage"] },
      { cookie: admin },
    );
    expect(invite.status).toBe(200);
    const mail = await smtp.waitFor(email);
    expect(mail.text).toContain("رئيس التحرير");
    const link = linkIn(mail, "/auth/reset");
    expect(link.searchParams.get("invite")).toBe("1");

    const accept = await post(
      base,
      "/auth/reset",
      { token: link.searchParams.get("token")!, password: "Rep0rterPass", confirm: "Rep0rterPass", invite: "1" },
      { ip: "10.1.0.8" },
    );
    expect(accept.status).toBe(302);
    expect(accept.headers.get("location")).toBe("/auth?notice=invited");

    const signIn = await post(base, "/auth", { mode: "signIn", email, password: "Rep0rterPass" }, { ip: "10.1.0.9" });
    expect(signIn.status).toBe(302);
    const staff = cookiesFrom(signIn);
    expect((await get(base, "/admin", { cookie: staff })).status).toBe(200);
    // The invitation gave contacts.manage, not users.manage.
    expect((await get(base, "/admin/users", { cookie: staff })).status).toBe(403);

    const users = await (await get(base, "/admin/users", { cookie: admin })).text();
    const id = new RegExp(`data-email="${email.replace(".", "\\.")}"[\\s\\S]*?name="userId" value="([^"]+)"`).exec(users)?.[1];
    expect(id).toBeTruthy();
    const disable = await post(base, "/admin/users", { intent: "disable", userId: id! }, { cookie: admin });
    expect(disable.status).toBe(200);

    const after = await get(base, "/admin", { cookie: staff });
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toBe("/auth?expired=1&redirectTo=%2Fadmin");
    const refused = await post(base, "/auth", { mode: "signIn", email, password: "Rep0rterPass" }, { ip: "10.1.0.10" });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("تم تعطيل هذا الحساب");
  });
});
