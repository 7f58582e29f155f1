/**
 * Issue 15: "a full disk during the first sign-in leaves an empty .auth-secret and sign-in is broken while
 * /readyz says 200". Against the built server: an empty secret file found at start is replaced, never
 * used, and the first administrator signs in; a data folder that stops taking writes (read-only, or full:
 * the secret cannot be stored) turns /readyz to 503, and back to 200 once it takes them again.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cookiesFrom, get, post } from "#tests/e2e/auth/support.ts";
import { chownTree, startOpsServer, unprivilegedUser, type OpsServer } from "./support.ts";

/** These tests are about the secret kept in DATA_DIR: one set in the environment (npm test sets one) is not used. */
const KEPT_SECRET = { BETTER_AUTH_SECRET: "" };

const SECRET_SHAPE = /^[A-Za-z0-9_-]{64}$/;

describe("readiness tells the truth about the data folder and the auth secret", () => {
  const running: OpsServer[] = [];
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop()));
  });

  it("replaces an empty .auth-secret found at start, is ready, and the first administrator signs in", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-ops-secret-"));
    const secretFile = path.join(dataDir, ".auth-secret");
    fs.writeFileSync(secretFile, "");
    const server = await startOpsServer({ dataDir, env: KEPT_SECRET });
    running.push(server);

    const secret = fs.readFileSync(secretFile, "utf8");
    expect(secret).toMatch(SECRET_SHAPE);
    expect(fs.statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(server.output()).toContain("the stored auth secret is empty or truncated");
    expect(server.output()).not.toContain(secret);
    expect(fs.readdirSync(dataDir).filter((f) => f.includes(".auth-secret."))).toEqual([]);
    const ready = await fetch(`${server.url}/readyz`);
    expect(await ready.json()).toEqual({ status: "ready", database: "pglite", dataDir: "ok", authSecret: "ok" });

    // Sessions are signed with it: the set-up link printed at start creates the administrator and signs them in.
    const token = new RegExp(`/setup\\?token=([A-Za-z0-9_-]{20,})`).exec(server.output())?.[1];
    expect(token, "the first-run set-up link in the log").toBeTruthy();
    const done = await post(
      server.url,
      "/setup",
      { token: token!, fullName: "المالكة", email: "owner@secret.test", password: "0wnerPassword" },
      { ip: "10.15.0.1" },
    );
    expect(done.status).toBe(302);
    const dashboard = await get(server.url, "/admin", { cookie: cookiesFrom(done) });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain("المالكة");
  });

  it("answers 503 while the data folder takes no writes and the secret is empty, and 200 once it takes them again", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-ops-ro-"));
    // The server runs as an unprivileged user so that a read-only folder binds it (root ignores permissions).
    chownTree(dataDir, unprivilegedUser);
    const server = await startOpsServer({ dataDir, env: KEPT_SECRET, user: unprivilegedUser });
    running.push(server);
    const secretFile = path.join(dataDir, ".auth-secret");
    expect(fs.readFileSync(secretFile, "utf8")).toMatch(SECRET_SHAPE);

    // What a full disk left behind: an empty secret in a folder that takes no new file.
    fs.writeFileSync(secretFile, "");
    fs.chmodSync(dataDir, 0o555);
    try {
      const down = await fetch(`${server.url}/readyz`);
      expect(down.status).toBe(503);
      expect(down.headers.get("cache-control")).toBe("no-store");
      expect(await down.json()).toEqual({ status: "unavailable", database: "pglite", dataDir: "not writable", authSecret: "unusable" });
      expect(fs.readFileSync(secretFile, "utf8")).toBe("");
      // The reason is in the log, not in the public answer.
      const logged = (msg: string) =>
        server
          .output()
          .split("\n")
          .filter((line) => line.includes(`"msg":"${msg}"`));
      expect(logged("readiness: the data folder is not writable").some((line) => line.includes("EACCES"))).toBe(true);
      expect(logged("auth secret unusable").some((line) => /Could not store the auth secret .*EACCES/.test(line))).toBe(true);
    } finally {
      fs.chmodSync(dataDir, 0o700);
    }

    const up = await fetch(`${server.url}/readyz`);
    expect(up.status).toBe(200);
    expect(await up.json()).toMatchObject({ status: "ready", dataDir: "ok", authSecret: "ok" });
    expect(fs.readFileSync(secretFile, "utf8")).toMatch(SECRET_SHAPE);
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith(".readyz-") || f.includes(".auth-secret."))).toEqual([]);
  });
});
