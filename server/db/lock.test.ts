import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase } from "#tests/helpers/db.ts";
import { openDatabase } from "./client.server.ts";
import { currentHolder, lockDataFolder, parseLockHolder, processStartTime } from "./data-folder-lock.server.ts";
import { rowsOf } from "./rows.server.ts";

const hasProc = fs.existsSync("/proc/self/stat");
const lockOf = (dataDir: string) => path.join(dataDir, "db.lock");
/** The lock alone (openDatabase takes it for the folder dataDir/db): no database is started, so these run fast. */
const lock = (dataDir: string) => lockDataFolder(path.join(dataDir, "db"));
const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "lock-"));

const children: { kill: (signal: NodeJS.Signals) => boolean }[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** Another process holding the lock through the real code, until it is killed. */
async function childHoldingLock(dataDir: string): Promise<number> {
  const lockModuleUrl = new URL("./data-folder-lock.server.ts", import.meta.url).href;
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `const { lockDataFolder } = await import(${JSON.stringify(lockModuleUrl)}); lockDataFolder(${JSON.stringify(path.join(dataDir, "db"))}); console.log("locked"); setInterval(() => {}, 1000);`,
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(child);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      output += d;
      if (output.includes("locked")) resolve();
    });
    child.stderr.on("data", (d) => (output += d));
    child.once("exit", (code) => reject(new Error(`the lock holder exited with ${code}:\n${output}`)));
  });
  return child.pid!;
}

const isAliveForTest = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A lock in the earlier bare-pid format naming a live process (not a lock holder), dated `offsetMs` from now. */
async function bareLockOfLiveProcess(offsetMs: number) {
  const dataDir = tempDir();
  const other = spawn("sleep", ["30"], { stdio: "ignore" });
  children.push(other);
  await new Promise((resolve) => other.once("spawn", resolve));
  fs.writeFileSync(lockOf(dataDir), String(other.pid));
  const when = new Date(Date.now() + offsetMs);
  fs.utimesSync(lockOf(dataDir), when, when);
  return { dataDir, pid: other.pid! };
}

describe("embedded database folder lock", () => {
  it("refuses a second opener of the same folder in this process until the first closes", async () => {
    const dataDir = tempDir();
    const first = openDatabase({ dataDir });
    expect(() => openDatabase({ dataDir })).toThrow(/in use by this process/);
    await first.close();
    const second = openDatabase({ dataDir });
    await second.close();
  });

  it("refuses it through a fresh copy of the module too (Vite's development server reloads modules in the same process)", async () => {
    const dataDir = tempDir();
    const release = lock(dataDir);
    vi.resetModules();
    const fresh = await import("./data-folder-lock.server.ts");
    expect(fresh.lockDataFolder).not.toBe(lockDataFolder);
    expect(() => fresh.lockDataFolder(path.join(dataDir, "db"))).toThrow(/in use by this process/);
    release();
    fresh.lockDataFolder(path.join(dataDir, "db"))();
  });

  it("records the holder's pid, start time and boot id, and removes the lock on close", async () => {
    const dataDir = tempDir();
    const h = openDatabase({ dataDir });
    const holder = parseLockHolder(fs.readFileSync(lockOf(dataDir), "utf8"));
    expect(holder).toEqual(currentHolder());
    expect(holder?.pid).toBe(process.pid);
    if (hasProc) {
      expect(holder?.startTime).toMatch(/^\d+$/);
      expect(holder?.bootId).toBe(fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim());
    }
    await h.close();
    expect(fs.existsSync(lockOf(dataDir))).toBe(false);
  });

  it("takes over a lock left by a process that no longer exists (old bare-pid format too)", () => {
    for (const content of ["999999", JSON.stringify({ pid: 999999, startTime: "1", bootId: "x" })]) {
      const dataDir = tempDir();
      fs.writeFileSync(lockOf(dataDir), content);
      const release = lock(dataDir);
      expect(parseLockHolder(fs.readFileSync(lockOf(dataDir), "utf8"))?.pid).toBe(process.pid);
      release();
      expect(fs.existsSync(lockOf(dataDir))).toBe(false);
    }
  });

  it.skipIf(!hasProc)("takes over a bare-pid lock (the earlier format) naming a live process that started after it was written", async () => {
    // Another live process, not a holder of any lock: the pid a restarted machine gave to something else.
    const { dataDir, pid } = await bareLockOfLiveProcess(-3600_000);
    expect(isAliveForTest(pid)).toBe(true);
    const release = lock(dataDir);
    expect(parseLockHolder(fs.readFileSync(lockOf(dataDir), "utf8"))?.pid).toBe(process.pid);
    release();
  });

  it.skipIf(!hasProc)("still refuses a bare-pid lock whose live process already ran when it was written", async () => {
    // Written after the process started (boot time is whole seconds: the file is dated well after).
    const { dataDir, pid } = await bareLockOfLiveProcess(5000);
    expect(() => lock(dataDir)).toThrow(new RegExp(`in use by process ${pid}`));
    expect(fs.readFileSync(lockOf(dataDir), "utf8")).toBe(String(pid));
  });

  it("takes over a lock naming this very pid: an earlier life of the process (a restarted container's pid 1)", () => {
    for (const content of [String(process.pid), JSON.stringify(currentHolder())]) {
      const dataDir = tempDir();
      fs.writeFileSync(lockOf(dataDir), content);
      const release = lock(dataDir);
      expect(parseLockHolder(fs.readFileSync(lockOf(dataDir), "utf8"))).toEqual(currentHolder());
      release();
      expect(fs.existsSync(lockOf(dataDir))).toBe(false);
    }
  });

  it.skipIf(!hasProc)("takes over a lock naming a live pid whose start time or boot differs (the pid was reused)", () => {
    const pid1 = { pid: 1, startTime: String(Number(processStartTime(1)) + 12345), bootId: currentHolder().bootId };
    const rebooted = { pid: 1, startTime: processStartTime(1), bootId: "00000000-0000-0000-0000-000000000000" };
    const runner = { pid: process.ppid, startTime: "1", bootId: currentHolder().bootId };
    for (const holder of [pid1, rebooted, runner]) {
      const dataDir = tempDir();
      fs.writeFileSync(lockOf(dataDir), JSON.stringify(holder));
      const release = lock(dataDir);
      expect(parseLockHolder(fs.readFileSync(lockOf(dataDir), "utf8"))?.pid).toBe(process.pid);
      release();
      expect(fs.existsSync(lockOf(dataDir))).toBe(false);
    }
  });

  it("takes over an empty or unreadable lock (a crash while an old version wrote it)", () => {
    for (const content of ["", '{"pi', "garbage"]) {
      const dataDir = tempDir();
      fs.writeFileSync(lockOf(dataDir), content);
      const release = lock(dataDir);
      expect(parseLockHolder(fs.readFileSync(lockOf(dataDir), "utf8"))).toEqual(currentHolder());
      release();
      expect(fs.existsSync(lockOf(dataDir))).toBe(false);
    }
  });

  it("refuses a lock held by another live process, saying which, and leaves it in place", async () => {
    const dataDir = tempDir();
    const pid = await childHoldingLock(dataDir);
    const held = fs.readFileSync(lockOf(dataDir), "utf8");
    expect(parseLockHolder(held)).toMatchObject({ pid });
    expect(() => openDatabase({ dataDir })).toThrow(new RegExp(`in use by process ${pid}\\. Stop it first, or set DATABASE_URL`));
    expect(fs.readFileSync(lockOf(dataDir), "utf8")).toBe(held);
    // Once that process is killed (no clean-up ran), its lock is stale.
    const child = children.pop()!;
    const exited = new Promise((resolve) => (child as unknown as NodeJS.EventEmitter).once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    lock(dataDir)();
  });

  it.skipIf(!hasProc)("reads a live process's start time (field 22 of /proc/<pid>/stat), and none for a dead pid", () => {
    // This process's command name has no spaces, so plain splitting gives the reference value.
    expect(processStartTime(process.pid)).toBe(fs.readFileSync("/proc/self/stat", "utf8").split(" ")[21]);
    expect(processStartTime(999999)).toBeUndefined();
  });
});

if (!process.env.TEST_DATABASE_URL)
  console.warn("migration lock test on PostgreSQL skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)");
describe.skipIf(!process.env.TEST_DATABASE_URL)("the migration lock (PostgreSQL)", () => {
  it("makes a second migrating process wait until the first is done, on a connection of its own", async () => {
    const t = await createTestDatabase("postgres", { migrate: false });
    // A second process's handle: its own pool and its own lock connection, on the same database.
    const other = openDatabase({ url: t.url });
    try {
      const events: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let held!: () => void;
      const holding = new Promise<void>((resolve) => (held = resolve));
      const first = t.withMigrationLock(async (db) => {
        events.push("first holds the lock");
        // The lock is the session's: the connection given is not one of the pool's.
        const [row] = rowsOf<{ n: number }>(
          await db.execute(sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()`),
        );
        expect(row.n).toBe(1);
        held();
        await gate;
        events.push("first done");
      });
      await holding;
      const second = other.migrate(() => {
        events.push("second waits");
        release();
      });
      await first;
      const changes = await second;
      events.push("second migrated");
      expect(events).toEqual(["first holds the lock", "second waits", "first done", "second migrated"]);
      expect(changes.migrations.length).toBeGreaterThan(0);
      // Released with the session: a third taker gets it at once.
      const never = vi.fn();
      await t.withMigrationLock(async () => {}, never);
      expect(never).not.toHaveBeenCalled();
    } finally {
      await other.close();
      await t.drop();
    }
  });
});
