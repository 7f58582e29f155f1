/**
 * The lock of the embedded database's folder (DATA_DIR/db.lock): PGlite is one process's database, and a
 * second process opening the same folder would corrupt it. openDatabase (server/db/client.server.ts) takes it
 * before PGlite starts and releases it on close.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { CodedError, type ErrorContext } from "#server/errors.server.ts";

/** The embedded database's folder is another process's (or this one's already): a start refused, not a failure. */
export class DatabaseLockedError extends CodedError {
  declare readonly code: "DATABASE_LOCKED";
  constructor(message: string, context: ErrorContext = {}) {
    super("DATABASE_LOCKED", message, { level: "fatal", context });
  }
}

const HELD_LOCKS = Symbol.for("sahara.db.heldLocks");

/** What db.lock records about its holder (older versions wrote the bare pid: read as `{ pid }`). */
export type LockHolder = { pid: number; startTime?: string; bootId?: string };

/**
 * Lock files this process holds: the only case where a lock naming our own pid is not stale. Kept on the
 * process, not the module: Vite's development server may load this module afresh in the same process.
 */
const heldLocks: Set<string> = ((globalThis as { [HELD_LOCKS]?: Set<string> })[HELD_LOCKS] ??= new Set<string>());

/**
 * PGlite is one process's database: a second process opening the same folder would corrupt it. The first
 * one to open it writes db.lock; another is refused while that holder lives. The lock names the holder by
 * pid, its start time and the boot id, because a pid alone outlives its process: a container restarted
 * after kill -9 gets the same pid (often 1) and would otherwise refuse itself forever. A lock is stale —
 * and taken over — when it names this process (from an earlier life), a pid that is dead, or a pid now
 * worn by another process (other start time, other boot). Without /proc only the pid is checked.
 * Processes in other pid namespaces (two containers sharing one volume) cannot be seen: use PostgreSQL.
 */
export function lockDataFolder(dir: string): () => void {
  const lockFile = path.resolve(`${dir}.lock`);
  if (heldLocks.has(lockFile)) throw lockedError(dir, { pid: process.pid });
  const mine = JSON.stringify(currentHolder());
  for (let attempt = 0; attempt < 5; attempt++) {
    // Written aside and linked into place, so a reader never sees a half-written lock (link refuses to replace).
    const temp = `${lockFile}.${process.pid}.${crypto.randomBytes(4).toString("hex")}`;
    fs.writeFileSync(temp, mine);
    try {
      fs.linkSync(temp, lockFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const found = readLock(lockFile);
      if (found === undefined) continue; // removed meanwhile
      const holder = parseLockHolder(found);
      if (holder && !lockIsStale(holder, lockWrittenAt(lockFile))) throw lockedError(dir, holder);
      takeOver(lockFile, found);
      continue;
    } finally {
      fs.rmSync(temp, { force: true });
    }
    heldLocks.add(lockFile);
    const release = () => {
      process.off("exit", release);
      heldLocks.delete(lockFile);
      try {
        if (readLock(lockFile) === mine) fs.rmSync(lockFile, { force: true });
      } catch {
        // the folder is gone or unreadable: nothing left to release
      }
    };
    process.once("exit", release);
    return release;
  }
  throw new DatabaseLockedError(`Could not lock ${dir}: its lock file keeps changing. Is another process starting on the same folder?`, { dir });
}

function lockedError(dir: string, holder: LockHolder) {
  const who = holder.pid === process.pid ? `this process (${holder.pid})` : `process ${holder.pid}`;
  return new DatabaseLockedError(
    `The embedded database in ${dir} is in use by ${who}. Stop it first, or set DATABASE_URL to share a PostgreSQL server between processes.`,
    { dir, pid: holder.pid },
  );
}

function readLock(lockFile: string): string | undefined {
  try {
    return fs.readFileSync(lockFile, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Removes a stale lock — unless another process replaced it since we read it: the lock is moved aside first
 * (one atomic step), and put back if what was moved is not what we judged.
 */
function takeOver(lockFile: string, judged: string) {
  const aside = `${lockFile}.stale-${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
  try {
    fs.renameSync(lockFile, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  try {
    if (fs.readFileSync(aside, "utf8") !== judged) fs.linkSync(aside, lockFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

/** The lock's content; an empty or unreadable one (a crash while it was written by an old version) is stale. */
export function parseLockHolder(text: string): LockHolder | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed) };
  try {
    const parsed = JSON.parse(trimmed) as Partial<LockHolder>;
    if (typeof parsed.pid === "number" && Number.isInteger(parsed.pid) && parsed.pid > 0) {
      return {
        pid: parsed.pid,
        startTime: typeof parsed.startTime === "string" ? parsed.startTime : undefined,
        bootId: typeof parsed.bootId === "string" ? parsed.bootId : undefined,
      };
    }
  } catch {
    // not JSON
  }
  return undefined;
}

export function currentHolder(): LockHolder {
  return { pid: process.pid, startTime: processStartTime(process.pid), bootId: bootId() };
}

/**
 * Whether the lock's holder is gone: see lockDataFolder. A lock in the earlier bare-pid format names no start
 * time; its holder is the process at that pid only if that process already ran when the lock was written
 * (`writtenAt`, the file's modification time): a process started later — after a reboot or a container
 * restart, say — is another one wearing the same pid.
 */
export function lockIsStale(holder: LockHolder, writtenAt?: number): boolean {
  if (holder.pid === process.pid) return true; // not held by us (heldLocks), so an earlier life of this pid
  const boot = bootId();
  if (holder.bootId && boot && holder.bootId !== boot) return true;
  if (!isAlive(holder.pid)) return true;
  if (!holder.startTime) {
    const startedAt = processStartedAt(holder.pid);
    return startedAt !== undefined && writtenAt !== undefined && startedAt > writtenAt;
  }
  const started = processStartTime(holder.pid);
  return Boolean(started && holder.startTime !== started);
}

function lockWrittenAt(lockFile: string): number | undefined {
  try {
    return fs.statSync(lockFile).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Clock ticks per second of /proc/<pid>/stat's start time (USER_HZ): 100 on every Linux Node runs on. */
const USER_HZ = 100;

/**
 * When a process started, in milliseconds since the epoch: the boot time (/proc/stat btime, whole seconds,
 * so up to a second early) plus its start time in ticks. Undefined without /proc.
 */
export function processStartedAt(pid: number): number | undefined {
  const ticks = Number(processStartTime(pid));
  try {
    const btime = Number(/^btime (\d+)$/m.exec(fs.readFileSync("/proc/stat", "utf8"))?.[1]);
    return Number.isFinite(ticks) && Number.isFinite(btime) && btime > 0 ? btime * 1000 + (ticks * 1000) / USER_HZ : undefined;
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/<pid>/stat: the start time in clock ticks since boot; undefined without /proc. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 2 (the command name, in parentheses) may hold spaces and parentheses: count from the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] || undefined;
  } catch {
    return undefined;
  }
}

function bootId(): string | undefined {
  try {
    return fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
