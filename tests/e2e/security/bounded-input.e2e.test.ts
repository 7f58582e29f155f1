/**
 * Bounded input against the built server (`node server.js`), spoken to over raw TCP where fetch() would not
 * send what an attacker sends: malformed request lines, oversized and endless bodies, stalled bodies and
 * headers, the language toggle's origin check, field lengths, and a second process on a port already taken.
 * The server runs with short time-outs so the stalled requests end in seconds; tests wait for the connection
 * to end (a state), never for a duration.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkConfig } from "#server/config.server.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { createAuth } from "#server/auth/auth.server.ts";
import { FILE_TUS_PATH } from "#server/media/storage/file-uploads.server.ts";
import { createPersona } from "#tests/helpers/auth.ts";
import { tusMetadata } from "#tests/helpers/tus.ts";
import { firstResponse, memoryOf, rawRequest, resetPeakMemory, sendChunked, settledMemory } from "#tests/helpers/raw-http.ts";
import { projectRoot, startServer, type RunningServer } from "#tests/e2e/support/server.ts";

const SECRET = "bounded-input-test-secret-5c2e8a1f9d3b7c6e4a0f2d8b";
const REQUEST_TIMEOUT_MS = 1500;
const IDLE_TIMEOUT_MS = 3000;
/** Uploads and the editor's form must bring UPLOAD_MIN_BYTES_PER_SECOND over each window of this. */
const RATE_WINDOW_MS = 1500;
const KB = 1024;
const MB = 1024 * KB;

/** The routes that read a body with the account forms' 16 KB limit. */
const ACCOUNT_ROUTES = ["/auth", "/auth/forgot", "/auth/reset", "/setup", "/auth/sign-out", "/language", "/api/auth/sign-up/email"];

let server: RunningServer;
let dataDir: string;
let adminCookie: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-bounded-"));
  const handle = openDatabase({ dataDir });
  try {
    await handle.migrate();
    const { config } = checkConfig({ DATA_DIR: dataDir, BETTER_AUTH_SECRET: SECRET, LOG_LEVEL: "silent" });
    const admin = await createPersona(createAuth({ db: handle.db, config }), handle.db, { email: "admin@bounded.test", password: "Passw0rdB", role: "admin" });
    adminCookie = admin.cookie;
  } finally {
    await handle.close();
  }
  server = await startServer({
    DATA_DIR: dataDir,
    BETTER_AUTH_SECRET: SECRET,
    SEED_DEMO: "false",
    LOG_LEVEL: "warn",
    HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    HTTP_HEADERS_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    HTTP_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS),
    UPLOAD_MIN_BYTES_PER_SECOND: "1024",
    UPLOAD_RATE_WINDOW_MS: String(RATE_WINDOW_MS),
  });
});

afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const host = () => `127.0.0.1:${server.port}`;
const origin = () => `http://${host()}`;
/** A complete request without a body, the connection closed once answered. */
const bare = (requestLine: string, headers = "") => `${requestLine}\r\nHost: ${host()}\r\n${headers}Connection: close\r\n\r\n`;

describe("malformed requests get a 4xx, never a 500", () => {
  const cases: [string, (port: number) => string, number][] = [
    ["TRACE on a page", () => bare("TRACE / HTTP/1.1"), 405],
    ["TRACE on the sign-in page", () => bare("TRACE /auth HTTP/1.1"), 405],
    ["TRACE on an API", () => bare("TRACE /api/news HTTP/1.1"), 405],
    ["TRACE with a session cookie (past the page cache)", () => bare("TRACE /news HTTP/1.1", "Cookie: a=b\r\n"), 405],
    ["a WebDAV method", () => bare("PROPFIND / HTTP/1.1"), 405],
    ["CONNECT", () => bare("CONNECT 127.0.0.1:80 HTTP/1.1"), 405],
    ["OPTIONS *", () => bare("OPTIONS * HTTP/1.1"), 204],
    ["GET *", () => bare("GET * HTTP/1.1", "Cookie: a=b\r\n"), 400],
    ["POST *", () => bare("POST * HTTP/1.1", "Content-Length: 0\r\n"), 400],
    ["an absolute-form target of another scheme", () => bare("GET ftp://127.0.0.1/ HTTP/1.1"), 400],
    ["an authority-form target on GET", () => bare("GET 127.0.0.1:80 HTTP/1.1"), 400],
    ["bad percent-encoding in a page path", () => bare("GET /news/%ZZ HTTP/1.1"), 400],
    ["a truncated UTF-8 sequence in an asset path", () => bare("GET /assets/%E0%A4%A HTTP/1.1"), 400],
    ["an overlong UTF-8 slash", () => bare("GET /%C0%AF..%C0%AFetc/passwd HTTP/1.1"), 400],
    ["bad percent-encoding in an API path", () => bare("GET /api/auth/%ZZ HTTP/1.1"), 400],
    ["DELETE on a page", () => bare("DELETE / HTTP/1.1", `Origin: ${origin()}\r\n`), 405],
    ["a Host with a space", () => `GET / HTTP/1.1\r\nHost: exa mple\r\nCookie: a=b\r\nConnection: close\r\n\r\n`, 400],
    ["a Host with bad percent-encoding, on an API", () => `GET /api/news HTTP/1.1\r\nHost: a%%\r\nConnection: close\r\n\r\n`, 400],
    ["an empty Host", () => `GET /news.data HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n`, 400],
    ["a Host whose port does not exist", () => `GET /auth HTTP/1.1\r\nHost: 127.0.0.1:99999\r\nConnection: close\r\n\r\n`, 400],
    ["an HTTP/0.9 request line without Host", () => `GET / HTTP/0.9\r\n\r\n`, 400],
    ["an HTTP/2.0 request line on HTTP/1 framing", () => bare("GET /news HTTP/2.0", "Cookie: a=b\r\n"), 400],
    ["a forwarded host that is no host", () => bare("GET /news HTTP/1.1", "X-Forwarded-Host: exa mple\r\nCookie: a=b\r\n"), 400],
    ["a forwarded protocol that is no protocol", () => bare("GET /api/news HTTP/1.1", "X-Forwarded-Proto: ja va\r\n"), 400],
    ["a NUL in a path", () => bare("GET /news/%00 HTTP/1.1"), 400],
    ["// and U+202E (read as a host by URL parsers)", () => bare("GET //%E2%80%AE HTTP/1.1"), 308],
  ];

  for (const [name, request, expected] of cases) {
    it(`answers ${name} with ${expected}`, async () => {
      const answer = await rawRequest(server.port, request(server.port));
      expect(answer.status, answer.head).toBe(expected);
      // A method the site never uses is refused with the list of those it does (React Router answers DELETE itself).
      if (expected === 405 && !name.startsWith("DELETE")) expect(answer.head).toMatch(/^Allow: GET, HEAD, POST/im);
    });
  }

  it("serves HTTP/1.0 without Host as a request for this site, page and API alike", async () => {
    for (const target of ["/api/news", "/auth", "/rss.xml"]) {
      const answer = await rawRequest(server.port, `GET ${target} HTTP/1.0\r\nCookie: a=b\r\n\r\n`);
      expect(answer.status, `${target}: ${answer.head}`).toBe(200);
    }
  });

  it("sends a path that starts with // to the same path with one slash, keeping the query", async () => {
    const answer = await rawRequest(server.port, bare("GET //news?page=2 HTTP/1.1"));
    expect(answer.status).toBe(308);
    expect(answer.head).toMatch(/^Location: \/news\?page=2\r?$/im);
  });

  it("logs none of these as an error (this server logs warnings and up)", () => {
    const errors = server
      .output()
      .split("\n")
      .filter((line) => /"level":(?:5\d|60)\b/.test(line));
    expect(errors).toEqual([]);
  });

  it("serves an absolute-form target (RFC 9112 §3.2.2) as the path it names, signed in or not", async () => {
    for (const cookie of ["", "Cookie: a=b\r\n"]) {
      const answer = await rawRequest(server.port, bare(`GET http://${host()}/auth HTTP/1.1`, cookie));
      expect(answer.status, answer.head).toBe(200);
      expect(answer.body).toContain("auth-form");
    }
    const form = "lang=fr&redirectTo=%2F";
    const post = await rawRequest(
      server.port,
      `POST http://${host()}/language HTTP/1.1\r\nHost: ${host()}\r\nOrigin: ${origin()}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\nConnection: close\r\n\r\n${form}`,
    );
    expect(post.status).toBe(302);
    expect(post.head).toMatch(/^Set-Cookie: .*=fr/im);
  });
});

describe("POST /language", () => {
  const post = (headers: Record<string, string>, body: BodyInit) => fetch(`${server.url}/language`, { method: "POST", headers, body, redirect: "manual" });

  it("keeps the choice and goes back to the page in that language, from our own pages", async () => {
    const res = await post({ Origin: origin() }, new URLSearchParams({ lang: "fr", redirectTo: "/news" }));
    expect(res.status).toBe(302);
    // The page's address in the chosen language (decision 0143): the address, not the cookie, decides it.
    expect(res.headers.get("location")).toBe("/fr/news");
    expect(res.headers.get("set-cookie")).toMatch(/=fr/);
  });

  it("refuses another site, or a post that names no origin, like every other form", async () => {
    const attempts: Record<string, string>[] = [{}, { Origin: "https://evil.example" }, { Origin: "null" }, { Referer: "https://evil.example/page" }];
    for (const headers of attempts) {
      const res = await post(headers, new URLSearchParams({ lang: "fr" }));
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
  });

  it("answers a body that is not a form with 400", async () => {
    expect((await post({ Origin: origin(), "Content-Type": "application/json" }, '{"lang":"fr"}')).status).toBe(400);
    expect((await post({ Origin: origin(), "Content-Type": "multipart/form-data; boundary=zz" }, "not multipart")).status).toBe(400);
    expect((await post({ Origin: origin() }, new URLSearchParams({ lang: "xx" }))).status).toBe(400);
  });
});

describe("oversized bodies are refused before or while reading, in bounded memory", () => {
  it("refuses a declared length over the limit before the body is sent", async () => {
    for (const route of ACCOUNT_ROUTES) {
      const answer = await rawRequest(
        server.port,
        `POST ${route} HTTP/1.1\r\nHost: ${host()}\r\nOrigin: ${origin()}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${100 * KB}\r\n\r\n`,
      );
      expect(answer.status, route).toBe(413);
      expect(answer.ended, route).not.toBe("open");
    }
    // Every other form: over 1 MB.
    const contact = await rawRequest(server.port, `POST /contact HTTP/1.1\r\nHost: ${host()}\r\nOrigin: ${origin()}\r\nContent-Length: ${2 * MB}\r\n\r\n`);
    expect(contact.status).toBe(413);
  });

  it("refuses a chunked body over the limit with 413 on every account route", async () => {
    for (const route of ACCOUNT_ROUTES) {
      const answer = await sendChunked(server.port, route, 1 * MB, { Origin: origin() });
      expect(answer.status, `${route}: ${answer.head}`).toBe(413);
    }
  });

  it("does not read an endless chunked body to its end", async () => {
    const total = 200 * MB;
    const answer = await sendChunked(server.port, "/auth", total, { Origin: origin() });
    expect(answer.status).toBe(413);
    expect(answer.sent).toBeLessThan(total / 4);
  });

  it("keeps memory flat under concurrent 64 MB bodies", async () => {
    const pid = server.process.pid!;
    const idle = await settledMemory(pid);
    const reset = resetPeakMemory(pid);
    let sampled = 0;
    const sampler = setInterval(() => (sampled = Math.max(sampled, memoryOf(pid).rss)), 20);
    try {
      const answers = await Promise.all(ACCOUNT_ROUTES.slice(0, 4).map((route) => sendChunked(server.port, route, 64 * MB, { Origin: origin() })));
      for (const a of answers) expect(a.status).toBe(413);
    } finally {
      clearInterval(sampler);
    }
    const peak = Math.max(sampled, reset ? memoryOf(pid).peak : 0);
    // Four bodies read whole would be 256 MB; bounded reading costs a few buffers.
    expect(peak - idle).toBeLessThan(64);
  });

  it("lets the newsroom editor's form, which carries its image, past the size check to its own", async () => {
    // Not signed in: refused by the guard (401), not for its 2 MB (under the editor's 11 MB).
    const answer = await rawRequest(
      server.port,
      `POST /admin/articles/new HTTP/1.1\r\nHost: ${host()}\r\nOrigin: ${origin()}\r\nContent-Length: ${2 * MB}\r\n\r\n`,
    );
    expect(answer.status).not.toBe(413);
    expect(answer.status).toBeLessThan(500);
    expect(answer.ended).not.toBe("open");
  });
});

describe("stalled requests do not hold a connection", () => {
  const stalled = (route: string, headers: string, partial: string) =>
    rawRequest(server.port, `POST ${route} HTTP/1.1\r\nHost: ${host()}\r\nOrigin: ${origin()}\r\n${headers}\r\n${partial}`);

  it("closes a body declared longer than what comes, with 408", async () => {
    const answer = await stalled("/auth", "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n", "mode=sig");
    expect(answer.status).toBe(408);
    expect(answer.ended).toBe("closed");
  });

  it("closes a chunked body that stops, with 408", async () => {
    for (const route of ["/language", "/setup", "/contact", "/opinion"]) {
      const answer = await stalled(route, "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n", "5\r\nlang=\r\n");
      expect(answer.status, route).toBe(408);
    }
  });

  it("closes a stalled body to better-auth's API", async () => {
    const answer = await stalled("/api/auth/sign-in/email", "Content-Type: application/json\r\nContent-Length: 100\r\n", '{"email"');
    expect(answer.status).toBe(408);
  });

  it("closes a stalled body that was answered before it was read (no session)", async () => {
    const answer = await stalled("/admin/articles/new", "Content-Length: 5000\r\n", "title=");
    expect(answer.status).toBeGreaterThanOrEqual(300);
    expect(answer.ended).not.toBe("open");
  });

  it("answers 408 to the editor's form (which may take its time) when it trickles below the upload rate", async () => {
    const socket = net.connect(server.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const answer = firstResponse(socket);
    socket.write(
      `POST /admin/articles/new HTTP/1.1\r\nHost: ${host()}\r\nOrigin: ${origin()}\r\nCookie: ${adminCookie}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\ntitle=`,
    );
    const trickle = setInterval(() => socket.writable && socket.write("a"), RATE_WINDOW_MS / 5);
    try {
      const { status } = await answer;
      expect(status).toBe(408);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });

  it("closes headers that never end, and a connection that sends nothing", async () => {
    const slow = await rawRequest(server.port, `GET / HTTP/1.1\r\nHost: ${host()}\r\nX-Slow: `);
    expect(slow.status).toBe(408);
    const silent = await rawRequest(server.port, "");
    expect(silent.ended).not.toBe("open");
  });
});

describe("resumable uploads are not cut by the request time-out", () => {
  /** Opens an upload of `length` bytes at the files endpoint; its URL. */
  async function createUpload(length: number): Promise<string> {
    const res = await fetch(`${server.url}${FILE_TUS_PATH}`, {
      method: "POST",
      headers: {
        cookie: adminCookie,
        origin: origin(),
        "Tus-Resumable": "1.0.0",
        "Upload-Length": String(length),
        "Upload-Metadata": tusMetadata({ filename: "slow.pdf", filetype: "application/pdf", folder: "media/files" }),
      },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return new URL(res.headers.get("location")!, `${server.url}${FILE_TUS_PATH}/`).pathname;
  }

  const patchHead = (url: string, offset: number, length: number) =>
    `PATCH ${url} HTTP/1.1\r\nHost: ${host()}\r\nOrigin: ${origin()}\r\nCookie: ${adminCookie}\r\nTus-Resumable: 1.0.0\r\n` +
    `Content-Type: application/offset+octet-stream\r\nUpload-Offset: ${offset}\r\nContent-Length: ${length}\r\n\r\n`;

  it("takes a PATCH that arrives slowly but steadily, for longer than HTTP_REQUEST_TIMEOUT_MS", async () => {
    const url = await createUpload(20_000);
    const socket = net.connect(server.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const answer = firstResponse(socket);
    const started = Date.now();
    socket.write(patchHead(url, 0, 10_000));
    socket.write("%PDF-");
    for (let sent = 5; sent < 10_000; sent += 1999) {
      // Each pause well inside the idle time-out, at about 5 KB/s, above the minimum rate; together longer
      // than the whole-request time-out.
      await new Promise((r) => setTimeout(r, REQUEST_TIMEOUT_MS / 4));
      socket.write(Buffer.alloc(Math.min(1999, 10_000 - sent), 0x20));
    }
    expect(Date.now() - started).toBeGreaterThan(REQUEST_TIMEOUT_MS);
    const { status, head } = await answer;
    socket.destroy();
    expect(status, head).toBe(204);
    expect(head).toMatch(/^Upload-Offset: 10000/im);
  });

  it("closes a PATCH that trickles below the minimum rate, keeping what arrived: the upload resumes from there", async () => {
    const url = await createUpload(2000);
    const socket = net.connect(server.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const started = Date.now();
    socket.write(patchHead(url, 0, 2000) + "%PDF-");
    // A byte every fifth of a window: the idle time-out never fires, the rate check does.
    const trickle = setInterval(() => socket.writable && socket.write("x"), RATE_WINDOW_MS / 5);
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.on("error", () => {});
    await closed;
    clearInterval(trickle);
    const held = Date.now() - started;
    console.log(`a trickling tus PATCH was held ${held} ms (window ${RATE_WINDOW_MS} ms, 1024 B/s at least)`);
    expect(held).toBeLessThan(IDLE_TIMEOUT_MS * 3);
    const headers = { cookie: adminCookie, origin: origin(), "Tus-Resumable": "1.0.0" };
    const offset = Number((await fetch(server.url + url, { method: "HEAD", headers })).headers.get("upload-offset"));
    expect(offset).toBeGreaterThanOrEqual(5);
    const rest = await fetch(server.url + url, {
      method: "PATCH",
      headers: { ...headers, "Content-Type": "application/offset+octet-stream", "Upload-Offset": String(offset) },
      body: Buffer.alloc(2000 - offset, 0x20),
    });
    expect(rest.status).toBe(204);
    expect(rest.headers.get("upload-file-url")).toMatch(/\.pdf$/);
  });

  it("refuses a creation request whose body it will not take before reading it, on both endpoints", async () => {
    const meta = tusMetadata({ filename: "big.pdf", filetype: "application/pdf", folder: "media/files" });
    const cases: [string, Record<string, string>, number][] = [
      [FILE_TUS_PATH, { "Upload-Length": "1000", "Upload-Metadata": meta, "Content-Type": "application/x-www-form-urlencoded" }, 400],
      [FILE_TUS_PATH, { "Upload-Length": String(900 * MB), "Upload-Metadata": meta, "Content-Type": "application/offset+octet-stream" }, 413],
      [
        "/api/admin/videos/tus",
        { "Upload-Length": "1000", "Upload-Metadata": tusMetadata({ filetype: "video/mp4" }), "Content-Type": "application/offset+octet-stream" },
        400,
      ],
    ];
    for (const [endpoint, headers, status] of cases) {
      const total = 200 * MB;
      const answer = await sendChunked(server.port, endpoint, total, { Origin: origin(), Cookie: adminCookie, "Tus-Resumable": "1.0.0", ...headers });
      expect(answer.status, `${endpoint} ${answer.head}`).toBe(status);
      expect(answer.sent, endpoint).toBeLessThan(total / 4);
    }
  });

  it("closes a PATCH that stops sending, by the idle time-out", async () => {
    const url = await createUpload(2000);
    const answer = await rawRequest(server.port, patchHead(url, 0, 1000) + "%PDF-1.4");
    expect(answer.ended).not.toBe("open");
  });
});

describe("field lengths", () => {
  const longEmail = `${"a".repeat(300)}@example.org`;

  it("refuses sign-up with an e-mail address over 254 characters on the form, with the spec's message", async () => {
    const res = await fetch(`${server.url}/auth`, {
      method: "POST",
      headers: { Origin: origin() },
      body: new URLSearchParams({ mode: "signUp", email: longEmail, password: "Passw0rdLong", fullName: "" }),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("البريد الإلكتروني غير صحيح");
  });

  it("refuses the same through better-auth's API, and a name over 100 characters", async () => {
    const signUp = (body: object) =>
      fetch(`${server.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { Origin: origin(), "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const email = await signUp({ email: longEmail, password: "Passw0rdLong", name: "x" });
    expect(email.status).toBe(400);
    expect(await email.json()).toMatchObject({ error: { code: "INVALID_EMAIL" } });
    const name = await signUp({ email: "long-name@example.org", password: "Passw0rdLong", name: "n".repeat(101) });
    expect(name.status).toBe(400);
    expect(await name.json()).toMatchObject({ error: { code: "NAME_TOO_LONG" } });
    const form = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { Origin: origin() },
      body: new URLSearchParams({ email: longEmail, password: "Passw0rdLong", name: "x" }),
    });
    expect(form.status).toBe(400);
  });
});

describe("a second process on the same port", () => {
  it("fails loudly with a non-zero exit code, and the first keeps serving", async () => {
    const second = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-second-"));
    try {
      const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
        let output = "";
        const child = spawn(process.execPath, [path.join(projectRoot, "server.js")], {
          cwd: projectRoot,
          env: {
            ...process.env,
            NODE_ENV: "production",
            PORT: String(server.port),
            HOST: "127.0.0.1",
            DATA_DIR: second,
            SEED_DEMO: "false",
            LOG_LEVEL: "info",
          },
          stdio: ["ignore", "pipe", "pipe"],
        });
        child.stdout.on("data", (d) => (output += d));
        child.stderr.on("data", (d) => (output += d));
        child.on("exit", (exitCode) => resolve({ code: exitCode, output }));
      });
      expect(code).not.toBe(0);
      expect(code).not.toBeNull();
      expect(output).toContain("already in use");
      expect(output).not.toContain("serving on");
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      fs.rmSync(second, { recursive: true, force: true });
    }
  });
});
