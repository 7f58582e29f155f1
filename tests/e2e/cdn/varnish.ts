/**
 * A real Varnish (Debian's `varnish` and `varnish-modules` for xkey) running the shipped VCL,
 * deploy/varnish/default.vcl, in front of a server: only the backend's address is rewritten, in a copy in a
 * temporary folder that also holds Varnish's working directory. Used by the shared-cache test
 * (varnish.e2e.test.ts) and by the bench's `cdn` section (scripts/bench-cdn.ts).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, projectRoot } from "#tests/e2e/support/server.ts";

export const VCL_PATH = path.join(projectRoot, "deploy/varnish/default.vcl");

export const varnishdPath = [process.env.VARNISHD_PATH, "/usr/sbin/varnishd", "/usr/local/sbin/varnishd"].find((p) => p && fs.existsSync(p));

function findXkey(): string | undefined {
  for (const lib of ["/usr/lib", "/usr/local/lib"]) {
    if (!fs.existsSync(lib)) continue;
    for (const dir of [lib, ...fs.readdirSync(lib).map((d) => path.join(lib, d))]) {
      const candidate = path.join(dir, "varnish/vmods/libvmod_xkey.so");
      if (fs.existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Why Varnish cannot run here, or null when it can. */
export const varnishMissing: string | null = !varnishdPath
  ? "no varnishd found (install it with: apt-get install -y varnish varnish-modules)"
  : !findXkey()
    ? "Varnish's xkey module is missing (install it with: apt-get install -y varnish-modules)"
    : null;

export const hasVarnish = varnishMissing === null;

export type RunningVarnish = { url: string; port: number; output: () => string; stop: () => Promise<void> };

/** The shipped VCL with its backend moved to `host:port` (nothing else changes). */
export function vclFor(backendPort: number, host = "127.0.0.1"): string {
  const vcl = fs.readFileSync(VCL_PATH, "utf8");
  const moved = vcl
    .replace(/(backend origin \{[^}]*?\.host = )"[^"]*";/, `$1"${host}";`)
    .replace(/(backend origin \{[^}]*?\.port = )"[^"]*";/, `$1"${backendPort}";`);
  if (!moved.includes(`.port = "${backendPort}";`)) throw new Error(`${VCL_PATH}: no \`backend origin\` with .host and .port to point at the server`);
  return moved;
}

/** Whether Varnish answers HTTP on `port` (its socket may accept before its worker process serves). */
async function answers(port: number): Promise<boolean> {
  try {
    await (await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) })).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/** Starts varnishd in the foreground on `port` (a free one by default) in front of 127.0.0.1:`backendPort`. */
export async function startVarnish({ backendPort, port, memoryMb = 64 }: { backendPort: number; port?: number; memoryMb?: number }): Promise<RunningVarnish> {
  if (varnishMissing || !varnishdPath) throw new Error(varnishMissing ?? "no varnishd");
  const listen = port ?? (await freePort());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-varnish-"));
  // Run as root, varnishd hands its worker process to an unprivileged user that must read the VCL copy.
  fs.chmodSync(dir, 0o755);
  const vcl = path.join(dir, "default.vcl");
  fs.writeFileSync(vcl, vclFor(backendPort), { mode: 0o644 });
  let output = "";
  const child = spawn(varnishdPath, ["-F", "-n", path.join(dir, "work"), "-a", `127.0.0.1:${listen}`, "-f", vcl, "-s", `malloc,${memoryMb}m`], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const started = Date.now();
  while (!(await answers(listen))) {
    if (child.exitCode !== null) throw new Error(`varnishd exited with ${child.exitCode}:\n${output}`);
    if (Date.now() - started > 30_000) {
      child.kill("SIGKILL");
      throw new Error(`varnishd did not listen on ${listen} within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${listen}`,
    port: listen,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once("exit", done);
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
  };
}

/** Page requests the server has answered (its /metrics, read from the loopback): every route but its probes. */
export async function originRequests(serverUrl: string): Promise<number> {
  const traffic = await originTraffic(serverUrl);
  return Object.keys(traffic)
    .filter((key) => key.startsWith("GET "))
    .reduce((sum, key) => sum + traffic[key], 0);
}

/**
 * What the server did, from its /metrics: `GET <route>` → requests answered (every route but its probes), and
 * `invalidated <tag>` → its read-cache invalidations, each of which purges the shared cache. Two readings' difference
 * says why a request reached the origin.
 */
export async function originTraffic(serverUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${serverUrl}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const m = /^(http_requests_total|sahara_read_cache_invalidations_total)\{([^}]*)\} (\d+(?:\.\d+)?(?:e\+\d+)?)$/.exec(line);
    if (!m) continue;
    if (m[1] === "sahara_read_cache_invalidations_total") {
      const tag = /tag="([^"]*)"/.exec(m[2])?.[1] ?? "?";
      counts[`invalidated ${tag}`] = (counts[`invalidated ${tag}`] ?? 0) + Number(m[3]);
      continue;
    }
    if (!/method="(GET|HEAD)"/.test(m[2]) || /route="\/(healthz|readyz|metrics)"/.test(m[2])) continue;
    const route = /route="([^"]*)"/.exec(m[2])?.[1] ?? "?";
    counts[`GET ${route}`] = (counts[`GET ${route}`] ?? 0) + Number(m[3]);
  }
  return counts;
}

/** What changed between two readings of originTraffic (only what did). */
export function trafficBetween(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([key, n]) => [key, n - (before[key] ?? 0)] as const)
      .filter(([, n]) => n !== 0),
  );
}

/** The shared-cache lifetime a Cache-Control gives (s-maxage, else max-age), in seconds. */
export function sharedMaxAge(cacheControl: string | null): number | undefined {
  const m = /(?:^|,)\s*s-maxage=(\d+)/.exec(cacheControl ?? "") ?? /(?:^|,)\s*max-age=(\d+)/.exec(cacheControl ?? "");
  return m ? Number(m[1]) : undefined;
}
