/**
 * First run: an installation without an administrator prints a one-time set-up link at start, and /setup
 * creates the first administrator with it — once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { announceFirstRunSetup } from "#server/auth/setup.server.ts";
import { cookiesFrom, get, post, startAuthServer, type AuthServer } from "./support.ts";

describe("first-run set-up", () => {
  let server: AuthServer<never>;
  let preparedToken: string | null = null;

  beforeAll(async () => {
    server = await startAuthServer({
      prepare: async (db) => {
        const link = await announceFirstRunSetup(db);
        preparedToken = link && new URL(link).searchParams.get("token");
      },
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** The link the server printed at start (a fresh one replaces any earlier one). */
  const printedLink = () => new RegExp(`${server.url.replace(/[.:/]/g, "\\$&")}/setup\\?token=([A-Za-z0-9_-]{20,})`).exec(server.output());

  it("prints a one-time set-up link to the log at start while there is no administrator", () => {
    expect(printedLink(), "server/app.server.ts prepare() must call announceFirstRunSetup() (server/auth/setup.server.ts)").not.toBeNull();
    expect(server.output()).toMatch(/No administrator yet/);
  });

  it("creates the first administrator through the link, signs them in, and the link then stops working", async () => {
    const token = printedLink()?.[1] ?? preparedToken!;
    expect(token).toBeTruthy();
    expect((await get(server.url, "/setup?token=not-the-token")).status).toBe(404);
    const form = await get(server.url, `/setup?token=${token}`);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('data-testid="setup-submit"');

    const weak = await post(server.url, "/setup", { token, fullName: "المالك", email: "owner@setup.test", password: "weak" });
    expect(weak.status).toBe(400);
    expect(await weak.text()).toContain("كلمة المرور يجب أن تكون 8 أحرف على الأقل");

    const done = await post(server.url, "/setup", { token, fullName: "المالك", email: "Owner@Setup.test", password: "0wnerPassword" }, { ip: "10.5.0.1" });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/admin");
    const cookie = cookiesFrom(done);
    const dashboard = await get(server.url, "/admin", { cookie });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain("المالك");

    expect((await get(server.url, `/setup?token=${token}`)).status).toBe(404);
    const again = await post(server.url, "/setup", { token, fullName: "x", email: "second@setup.test", password: "Sec0ndPassword" });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('data-testid="setup-invalid"');
  });
});
