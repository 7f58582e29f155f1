/**
 * Issue 15, "restart after a crash": kill -9 the server on the embedded database during writes and start
 * it again on the same folder. The lock must not outlive its process — not even when the new process
 * wears the pid the lock names (a container restarted after a crash gets the same pid, often 1) — and
 * every write the server acknowledged must still be there.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { categories } from "#server/db/schema.server.ts";
import { currentHolder, parseLockHolder } from "#server/db/data-folder-lock.server.ts";
import { E2E_SECRET, startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { apiCall, startOpsServer, type OpsServer } from "./support.ts";

type Item = { id: number; title: string; url: string };

describe("kill -9 and restart on the embedded database", () => {
  const running: { stop: () => Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop()));
  });

  it("starts again after kill -9 during writes, whoever the stale lock names, and keeps every acknowledged write", async () => {
    let categoryId = 0;
    const first: AuthServer<"admin"> = await startAuthServer({
      personas: { admin: { email: "chief@restart.test", password: "Passw0rdA", role: "admin" } },
      prepare: async (db) => {
        const [c] = await db.insert(categories).values({ name: "عاجل", slug: "breaking", type: "news" }).returning({ id: categories.id });
        categoryId = c.id;
      },
    });
    running.push(first);
    const { dataDir } = first;
    const cookie = first.personas.admin.cookie;
    const lockFile = path.join(dataDir, "db.lock");
    const acknowledged: Item[] = [];
    let refused: Error | undefined;

    /** Writes until the server goes away; an item counts once its 201 and body have arrived. */
    const writer = (base: string, lane: number) => async () => {
      for (let n = 0; ; n++) {
        const title = `نشرة نواكشوط المسائية رقم ${lane}-${n} ${path.basename(base)}`;
        try {
          const res = await apiCall(base, "POST", "/api/admin/news", {
            cookie,
            body: {
              title,
              excerpt: "ملخص النشرة المسائية من نواكشوط",
              content: "<p>نص النشرة المسائية من نواكشوط.</p>",
              category_id: categoryId,
              priority: "high",
              status: "published",
            },
          });
          if (res.status !== 201) {
            refused = new Error(`write refused: ${res.status} ${await res.text()}`);
            return;
          }
          acknowledged.push((await res.json()) as Item);
        } catch {
          return; // the connection died with the server
        }
      }
    };
    const crashDuringWrites = async (server: { url: string; process: { kill: (s: NodeJS.Signals) => boolean } }, exited: Promise<unknown>) => {
      const before = acknowledged.length;
      const lanes = [0, 1, 2, 3].map((lane) => writer(server.url, lane)());
      await vi.waitFor(
        () => {
          if (refused) return;
          expect(acknowledged.length - before).toBeGreaterThanOrEqual(20);
        },
        { timeout: 120_000, interval: 20 },
      );
      if (refused) throw refused;
      server.process.kill("SIGKILL");
      await exited;
      await Promise.all(lanes);
    };
    const exitOf = (p: { once: (e: "exit", l: () => void) => unknown }) => new Promise<void>((resolve) => p.once("exit", () => resolve()));
    const expectAllKept = async (server: OpsServer) => {
      for (const item of acknowledged) {
        const res = await apiCall(server.url, "GET", `/api/admin/news/${item.id}`, { cookie });
        expect(res.status, `acknowledged item ${item.id} after a restart`).toBe(200);
        expect(((await res.json()) as Item).title).toBe(item.title);
      }
    };

    // 1. kill -9 during writes; the lock stays behind.
    await crashDuringWrites(first, exitOf(first.process));
    expect(parseLockHolder(fs.readFileSync(lockFile, "utf8"))?.pid).toBe(first.process.pid);

    // 2. The lock names the very pid of the process that starts (the container case), in the old bare-pid
    //    format: written by the shell that then execs the server, so the server keeps that pid.
    const second = await startOpsServer({ dataDir, env: { BETTER_AUTH_SECRET: E2E_SECRET }, before: `echo $$ > "$DATA_DIR/db.lock"` });
    running.push(second);
    expect(second.output()).not.toMatch(/in use by/);
    expect(parseLockHolder(fs.readFileSync(lockFile, "utf8"))).toMatchObject({ pid: second.process.pid });
    await expectAllKept(second);

    // 3. Again, now with a lock naming a live process that is not its holder: the pid of this test runner,
    //    with another start time (what a reused pid looks like).
    await crashDuringWrites(second, exitOf(second.process));
    const reused = { ...currentHolder(), startTime: "1" };
    fs.writeFileSync(lockFile, JSON.stringify(reused));
    const third = await startOpsServer({ dataDir, env: { BETTER_AUTH_SECRET: E2E_SECRET } });
    running.push(third);
    const holder = parseLockHolder(fs.readFileSync(lockFile, "utf8"));
    expect(holder?.pid).toBe(third.process.pid);
    if (fs.existsSync("/proc/self/stat")) expect(holder?.startTime).toMatch(/^\d+$/);
    await expectAllKept(third);
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);

    // A clean stop releases the lock.
    await third.stop();
    expect(fs.existsSync(lockFile)).toBe(false);
  }, 600_000);

  it("refuses to start while another live server holds the folder, saying which process", async () => {
    const holder = await startOpsServer();
    running.push(holder);
    const second = await startOpsServer({ dataDir: holder.dataDir, waitReady: false });
    const code = await new Promise<number | null>((resolve) => {
      if (second.process.exitCode !== null) resolve(second.process.exitCode);
      else second.process.once("exit", (c) => resolve(c));
    });
    expect(code).not.toBe(0);
    expect(second.output()).toContain(`is in use by process ${holder.process.pid}`);
    expect((await fetch(`${holder.url}/readyz`)).status).toBe(200);
  });
});
