/**
 * What /readyz answers (server/app.server.ts): ready means this process can serve readers and sign people in —
 * the database answers, the data folder takes writes (PGlite, uploads, the outbox, the generated auth
 * secret) and sessions can be signed. A load balancer stops sending traffic on 503. The body names the
 * check that failed; the reason (paths, error codes) goes to the log only, since /readyz is public.
 */
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Config } from "#server/config.server.ts";
import type { DatabaseHandle } from "#server/db/client.server.ts";
import { logger } from "./logger.server.ts";
import { authSecretUsable } from "./secrets.server.ts";

export type ReadinessReport = {
  status: "ready" | "unavailable";
  /** The driver when it answers. */
  database: DatabaseHandle["driver"] | "unreachable";
  dataDir: "ok" | "not writable";
  authSecret: "ok" | "unusable";
};

export type ReadinessOptions = {
  config: Config;
  database: () => Promise<DatabaseHandle>;
  /** Builds (or returns) the sign-in machinery, which needs the secret; a failure there is "unusable" too. */
  auth?: () => Promise<unknown>;
  /** A database that neither answers nor fails (a dropped network) must not hold the probe. */
  timeoutMs?: number;
};

export async function checkReadiness({ config, database, auth, timeoutMs = 5000 }: ReadinessOptions): Promise<ReadinessReport> {
  const [db, dataDir, authSecret] = await Promise.all([
    withTimeout(
      database().then(async (handle) => {
        await handle.ping();
        return handle.driver;
      }),
      timeoutMs,
    ).catch((error: unknown) => {
      logger.warn({ err: error }, "readiness: the database does not answer");
      return "unreachable" as const;
    }),
    probeWritable(config.dataDir),
    (async () => {
      // The data folder check runs beside this one; a secret that must be generated needs a writable folder too.
      if (!authSecretUsable(config)) return "unusable" as const;
      if (auth) {
        try {
          await auth();
        } catch (error) {
          logger.warn({ err: error }, "readiness: sign-in cannot be set up");
          return "unusable" as const;
        }
      }
      return "ok" as const;
    })(),
  ]);
  const ready = db !== "unreachable" && dataDir === "ok" && authSecret === "ok";
  return { status: ready ? "ready" : "unavailable", database: db, dataDir, authSecret };
}

/** Creates, writes and removes a small file: a read-only mount or a full disk fails here, not at the next upload. */
async function probeWritable(dir: string): Promise<ReadinessReport["dataDir"]> {
  const probe = path.join(dir, `.readyz-${process.pid}-${crypto.randomBytes(4).toString("hex")}`);
  try {
    await fs.writeFile(probe, "ok", { flag: "wx" });
    return "ok";
  } catch (error) {
    logger.warn({ err: error, dir }, "readiness: the data folder is not writable");
    return "not writable";
  } finally {
    await fs.rm(probe, { force: true }).catch(() => undefined);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
