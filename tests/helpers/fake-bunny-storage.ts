/**
 * A local stand-in for Bunny Storage (https://docs.bunny.net/storage/http) and its pull zone, on two
 * ports sharing one disk folder:
 * - storage API, `/{zone}/{path}/{file}`: every request needs `AccessKey` (401 otherwise, also for an
 *   unknown zone); PUT stores the raw body (201, directories created on the way; an optional `Checksum`
 *   header, SHA-256 in hex, is verified, 400 on mismatch), GET answers the bytes or, for a path ending in
 *   `/`, the JSON listing (its files, and its subdirectories as `IsDirectory` entries); DELETE removes a file
 *   or a whole directory (200), 404 when there is nothing.
 * - CDN, `/{path}/{file}`: public GET of what the zone holds, with the type it was uploaded with.
 * Bodies are streamed to disk and hashed on the way, so a large upload costs the test no memory.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";

export type StoredObject = { path: string; size: number; sha256: string; contentType: string; changed: Date };

export type FakeBunnyStorage = {
  /** Storage API base, what BUNNY_STORAGE_HOST points at. */
  apiUrl: string;
  /** Pull-zone base, what CDN_URL points at. */
  cdnUrl: string;
  zone: string;
  accessKey: string;
  /** Files held, by path inside the zone (decoded, without a leading slash). */
  files: Map<string, StoredObject>;
  /** Body bytes received so far over all PUTs, counted as they arrive. */
  bytesReceived: () => number;
  requests: { method: string; path: string; accessKeyOk: boolean; contentType?: string; contentLength?: string }[];
  close: () => Promise<void>;
};

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
};
const answer = (res: http.ServerResponse, status: number, message: string) => json(res, status, { HttpCode: status, Message: message });

/** `/a/b%20c/` → ["a", "b c"]; null when a segment tries to leave the zone. */
function segmentsOf(pathname: string): string[] | null {
  try {
    const segments = pathname.split("/").filter(Boolean).map(decodeURIComponent);
    return segments.some((s) => s === ".." || s === "." || s.includes("\\")) ? null : segments;
  } catch {
    return null;
  }
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startFakeBunnyStorage({ zone = "sahara-test", accessKey = "zone-password-4f9c2a" } = {}): Promise<FakeBunnyStorage> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "fake-bunny-"));
  const files = new Map<string, StoredObject>();
  const requests: FakeBunnyStorage["requests"] = [];
  let received = 0;
  const diskPath = (name: string) => path.join(dir, "zone", ...name.split("/"));

  const api = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const accessKeyOk = req.headers.accesskey === accessKey;
    requests.push({
      method: req.method ?? "",
      path: url.pathname,
      accessKeyOk,
      contentType: req.headers["content-type"],
      contentLength: req.headers["content-length"],
    });
    const segments = segmentsOf(url.pathname);
    if (!accessKeyOk || !segments || segments[0] !== zone) return answer(res, 401, "Unauthorized");
    const name = segments.slice(1).join("/");
    const isDirectory = url.pathname.endsWith("/");

    if (req.method === "PUT") {
      if (!name || isDirectory) return answer(res, 400, "Invalid path");
      void receive(req, name).then(
        (stored) => {
          const expected = req.headers.checksum;
          if (typeof expected === "string" && expected.toUpperCase() !== stored.sha256.toUpperCase()) {
            void forget(name).then(() => answer(res, 400, "Checksum and file hash do not match"));
            return;
          }
          answer(res, 201, "File uploaded.");
        },
        () => {
          // The client went away mid-body: nothing is kept, as a real zone keeps nothing of a broken upload.
          if (!res.headersSent) answer(res, 400, "Upload interrupted");
        },
      );
      return;
    }
    if (req.method === "GET") {
      if (isDirectory) {
        const prefix = name ? `${name}/` : "";
        const inside = [...files.values()].filter((f) => f.path.startsWith(prefix));
        // As the real zone answers: the files of this directory, and its subdirectories as entries of their own.
        const listing = inside
          .filter((f) => !f.path.slice(prefix.length).includes("/"))
          .map((f) => ({
            ObjectName: f.path.slice(prefix.length),
            Path: `/${zone}/${prefix}`,
            Length: f.size,
            IsDirectory: false,
            LastChanged: f.changed.toISOString().replace(/Z$/, ""),
            StorageZoneName: zone,
          }));
        const subdirectories = new Set(
          inside
            .map((f) => f.path.slice(prefix.length))
            .filter((rest) => rest.includes("/"))
            .map((rest) => rest.split("/")[0]),
        );
        for (const directory of subdirectories)
          listing.push({ ObjectName: directory, Path: `/${zone}/${prefix}`, Length: 0, IsDirectory: true, LastChanged: "", StorageZoneName: zone });
        return json(res, 200, listing);
      }
      return serve(res, name);
    }
    if (req.method === "DELETE") {
      const prefix = isDirectory ? `${name}/` : null;
      const doomed = [...files.keys()].filter((p) => (prefix === null ? p === name : p.startsWith(prefix)));
      if (!doomed.length) return answer(res, 404, "Object Not Found");
      void Promise.all(doomed.map(forget)).then(() => answer(res, 200, "File deleted successfully."));
      return;
    }
    answer(res, 405, "Method not allowed");
  });

  const cdn = http.createServer((req, res) => {
    const segments = segmentsOf(new URL(req.url ?? "/", "http://fake").pathname);
    if (req.method !== "GET" || !segments) return answer(res, 404, "Not found");
    serve(res, segments.join("/"));
  });

  async function receive(req: http.IncomingMessage, name: string): Promise<StoredObject> {
    const target = diskPath(name);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const partial = `${target}.${process.hrtime.bigint()}.part`;
    const hash = createHash("sha256");
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        received += chunk.length;
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    try {
      await pipeline(req, count, createWriteStream(partial));
      if (!req.complete) throw new Error("aborted");
      await fs.rename(partial, target);
    } catch (error) {
      await fs.rm(partial, { force: true });
      throw error;
    }
    const stored = {
      path: name,
      size,
      sha256: hash.digest("hex"),
      contentType: req.headers["content-type"] ?? "application/octet-stream",
      changed: new Date(),
    };
    files.set(name, stored);
    return stored;
  }

  async function forget(name: string) {
    files.delete(name);
    await fs.rm(diskPath(name), { force: true });
  }

  function serve(res: http.ServerResponse, name: string) {
    const file = files.get(name);
    if (!file) return answer(res, 404, "Object Not Found");
    res.writeHead(200, { "Content-Type": file.contentType, "Content-Length": file.size });
    createReadStream(diskPath(name)).pipe(res);
  }

  const [apiUrl, cdnUrl] = await Promise.all([listen(api), listen(cdn)]);
  return {
    apiUrl,
    cdnUrl,
    zone,
    accessKey,
    files,
    bytesReceived: () => received,
    requests,
    close: async () => {
      for (const server of [api, cdn]) server.closeAllConnections();
      await Promise.all([api, cdn].map((server) => new Promise((resolve) => server.close(resolve))));
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
