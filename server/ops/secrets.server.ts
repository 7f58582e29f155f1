import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { CodedError, type ErrorContext } from "#server/errors.server.ts";
import type { Config } from "#server/config.server.ts";
import { logger } from "./logger.server.ts";

/** The shortest stored secret accepted; what we generate is 64 characters. */
const MIN_SECRET_LENGTH = 32;

const REMEDY = "Free space in DATA_DIR, make it writable, or set BETTER_AUTH_SECRET.";

/** No session secret can be kept: the server cannot sign sessions, so it does not start. The context names the file. */
export class AuthSecretError extends CodedError {
  declare readonly code: "AUTH_SECRET_UNUSABLE";
  constructor(message: string, { cause, context }: { cause?: unknown; context?: ErrorContext } = {}) {
    super("AUTH_SECRET_UNUSABLE", message, { level: "fatal", cause, context });
  }
}

/**
 * The signing secret for sessions. Set BETTER_AUTH_SECRET in any shared deployment; without it a random
 * secret is generated once and kept in DATA_DIR/.auth-secret (mode 600), so a fresh `npm start` works and
 * sessions survive restarts.
 *
 * The file is written aside, flushed and renamed into place, so a crash or a full disk never leaves a
 * partial secret behind. One found empty or shorter than 32 characters (an older version's write that
 * failed half-way) is never used: a new secret replaces it, with a warning. When no secret can be stored,
 * this throws AuthSecretError rather than sign sessions with a secret the next start would not know.
 */
export function authSecret(config: Config): string {
  if (config.BETTER_AUTH_SECRET) return config.BETTER_AUTH_SECRET;
  const file = path.join(config.dataDir, ".auth-secret");
  const found = readSecret(file);
  if (found.state === "ok") return found.secret;
  if (found.state === "damaged") {
    logger.warn({ file, length: found.length }, "the stored auth secret is empty or truncated: a new one replaces it (existing sessions end)");
  }
  try {
    fs.mkdirSync(config.dataDir, { recursive: true });
    writeAtomically(file, crypto.randomBytes(48).toString("base64url"), { replace: found.state === "damaged" });
  } catch (error) {
    throw new AuthSecretError(`Could not store the auth secret in ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). ${REMEDY}`, {
      cause: error,
      context: { file, reason: (error as NodeJS.ErrnoException).code },
    });
  }
  // Read back rather than returned: when two processes start together, the first one stored wins for both.
  const stored = readSecret(file);
  if (stored.state !== "ok") throw new AuthSecretError(`The auth secret in ${file} could not be read back after writing it.`, { context: { file } });
  return stored.secret;
}

/** Whether sessions can be signed: the secret is set, or stored (generating it if needed). For /readyz. */
export function authSecretUsable(config: Config): boolean {
  try {
    authSecret(config);
    return true;
  } catch (error) {
    logger.warn({ err: error }, "auth secret unusable");
    return false;
  }
}

type Found = { state: "ok"; secret: string } | { state: "missing" } | { state: "damaged"; length: number };

function readSecret(file: string): Found {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { state: "missing" };
    throw new AuthSecretError(`Could not read the auth secret in ${file} (${(error as NodeJS.ErrnoException).code}). ${REMEDY}`, {
      cause: error,
      context: { file, reason: (error as NodeJS.ErrnoException).code },
    });
  }
  const secret = text.trim();
  return secret.length >= MIN_SECRET_LENGTH ? { state: "ok", secret } : { state: "damaged", length: secret.length };
}

/**
 * Writes a temporary file in the same folder, flushes it to disk, then puts it in place: rename replaces a
 * damaged file; link never replaces, so of two processes creating the secret at once the first one stays.
 */
function writeAtomically(file: string, content: string, { replace }: { replace: boolean }) {
  const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
  try {
    const fd = fs.openSync(temp, "wx", 0o600);
    try {
      fs.writeFileSync(fd, content);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (replace) fs.renameSync(temp, file);
    else {
      try {
        fs.linkSync(temp, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    }
    syncFolder(path.dirname(file));
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** The rename or link itself is durable only once the folder is flushed (not possible everywhere: then skipped). */
function syncFolder(dir: string) {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // Windows cannot open a folder for fsync
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
