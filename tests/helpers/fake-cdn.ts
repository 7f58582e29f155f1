/**
 * Small local servers speaking the purge protocols of the shared caches (server/cdn/purge-drivers.server.ts), for
 * the real client code to talk to. Each records what it was sent and answers as the documented service does:
 *
 * - Varnish with xkey (deploy/varnish/default.vcl): `PURGE` with an `xkey-purge` header → 200; anything else 405.
 * - Bunny's pull-zone purge: `POST /pullzone/{id}/purgeCache`, `AccessKey`; a JSON body `{"CacheTag": "…"}` or none
 *   (the whole zone) → 204; a wrong key → 401; another zone → 404.
 * - Cloudflare's `POST /zones/{zone}/purge_cache`, `Authorization: Bearer`; `{"tags": […]}` or `{"files": […]}`, at
 *   most 100 → 200 `{"success": true, …}`; a wrong token → 403 and more than 100 → 400, both `{"success": false, …}`.
 *
 * `failNext(n, status)` makes the next n requests fail with that status (a CDN having a bad minute).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type RecordedPurge = { method: string; path: string; headers: http.IncomingHttpHeaders; body: string };
type Answer = { status: number; body?: string; type?: string };

export type FakeCdn = {
  url: string;
  requests: RecordedPurge[];
  failNext: (count: number, status?: number) => void;
  close: () => Promise<void>;
};

async function startFake(handle: (request: RecordedPurge) => Answer): Promise<FakeCdn> {
  const requests: RecordedPurge[] = [];
  let failures = { count: 0, status: 503 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const recorded = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      requests.push(recorded);
      let answer: Answer;
      if (failures.count > 0) {
        failures.count--;
        answer = { status: failures.status, body: "upstream trouble" };
      } else answer = handle(recorded);
      res.writeHead(answer.status, { "Content-Type": answer.type ?? "text/plain" }).end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext: (count, status = 503) => (failures = { count, status }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function startFakeVarnish(): Promise<FakeCdn> {
  return startFake((req) => {
    const keys = req.headers["xkey-purge"];
    if (req.method !== "PURGE" || typeof keys !== "string" || !keys.trim()) return { status: 405, body: "Method Not Allowed" };
    return { status: 200, body: `Invalidated ${keys.trim().split(/\s+/).length} objects` };
  });
}

export function startFakeBunny({ apiKey, pullZoneId }: { apiKey: string; pullZoneId: string }): Promise<FakeCdn> {
  const error = (status: number, ErrorKey: string, Message: string): Answer => ({
    status,
    body: JSON.stringify({ ErrorKey, Field: "", Message }),
    type: "application/json",
  });
  return startFake((req) => {
    const match = /^\/pullzone\/([^/]+)\/purgeCache$/.exec(req.path);
    if (req.method !== "POST" || !match) return error(404, "not_found", "Not found");
    if (req.headers.accesskey !== apiKey) return error(401, "unauthorized", "Authorization has been denied for this request.");
    if (match[1] !== pullZoneId) return error(404, "pullzone.not_found", "The requested Pull Zone was not found");
    if (req.body) {
      try {
        const body = JSON.parse(req.body) as { CacheTag?: unknown };
        if (typeof body.CacheTag !== "string" || !body.CacheTag) return error(400, "validation", "CacheTag is invalid");
      } catch {
        return error(400, "validation", "The request body is not valid JSON");
      }
    }
    return { status: 204 };
  });
}

export function startFakeCloudflare({ zoneId, token }: { zoneId: string; token: string }): Promise<FakeCdn> {
  const envelope = (status: number, success: boolean, errors: { code: number; message: string }[] = []): Answer => ({
    status,
    body: JSON.stringify({ success, errors, messages: [], result: success ? { id: zoneId } : null }),
    type: "application/json",
  });
  return startFake((req) => {
    if (req.method !== "POST" || req.path !== `/zones/${zoneId}/purge_cache`)
      return envelope(404, false, [{ code: 7003, message: "Could not route to /zones" }]);
    if (req.headers.authorization !== `Bearer ${token}`) return envelope(403, false, [{ code: 10000, message: "Authentication error" }]);
    let body: { tags?: unknown; files?: unknown };
    try {
      body = JSON.parse(req.body) as typeof body;
    } catch {
      return envelope(400, false, [{ code: 1012, message: 'Request must contain one of "purge_everything", "files", "tags", "hosts" or "prefixes"' }]);
    }
    const list = Array.isArray(body.tags) ? body.tags : Array.isArray(body.files) ? body.files : null;
    if (!list || !list.length || list.some((item) => typeof item !== "string")) {
      return envelope(400, false, [{ code: 1012, message: 'Request must contain one of "purge_everything", "files", "tags", "hosts" or "prefixes"' }]);
    }
    if (list.length > 100) return envelope(400, false, [{ code: 1070, message: "Only 100 items may be purged per request" }]);
    return envelope(200, true);
  });
}
