/**
 * The page section of `npm run bench` (scripts/bench.ts): for home `/`, `/news`, a news item, an article (the
 * first one the home page links to), a section page `/culture`, `/programs` and `/search?q=الصحراء`:
 *
 *  - throughput against a static file of the same server (`/favicon.svg`), with autocannon (16 connections,
 *    `Accept-Encoding: gzip`, BENCH_MS each, default 3000, at least 1000), with the full-page cache warm and
 *    off (`PAGE_CACHE=off`: every request renders; docs/decisions/0106-page-cache.md). The static file is
 *    measured before the first page and after each page, and each page's ratio is against the mean of the two
 *    static runs around it: the machine's load drifts, a pair measured side by side does not. Non-2xx answers
 *    and connection errors are counted and printed (a run with any is not a valid figure). The servers run with
 *    a search limit no bench reaches (SEARCH_RATE_LIMIT, decision 0128): with the page cache off every search
 *    page is a search that runs, and counts. Autocannon sends no User-Agent, so these requests count no views.
 *  - bytes per page as a reader's browser gets them: headless Chromium (playwright-core), phone viewport
 *    375×812, Arabic, a fresh browser context per page (empty cache); after load and network idle, the encoded
 *    (as sent: gzip/br) body bytes of every response by type, plus the inline <script> elements of the HTML
 *    that are not JSON-LD, gzip -9 (they travel inside the HTML: counted again as JavaScript, fairly
 *    compressed); the article's JavaScript against the 20 KB budget. Without Chromium: from the HTML's
 *    script/stylesheet URLs, gzip -9, saying so.
 *  - Lighthouse mobile performance on the Arabic home and article pages (scripts/bench-lighthouse.ts).
 *  - a PASS/FAIL line per criterion of the performance issue.
 *
 * `benchPages()` runs on the embedded database (PGlite, a fresh DATA_DIR); `benchPages({ databaseUrl })` on a
 * throw-away database created on that PostgreSQL server (the server migrates and seeds it on first start),
 * dropped afterwards. `pagesDatabaseFromEnv()` picks DATABASE_URL, else BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL (the variables scripts/bench-processes.ts and the tests use), PostgreSQL URLs only.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import { gzipSync } from "node:zlib";
import pg from "pg";
import type { Browser } from "playwright-core";
import { chromiumPath, launchBrowser } from "#tests/e2e/support/browser.ts";
import { startServer } from "#tests/e2e/support/server.ts";
import { benchLighthouse, type LighthouseFigures } from "./bench-lighthouse.ts";
import { autocannon } from "./bench-tools.ts";

const CONNECTIONS = 16;
const JS_BUDGET_KB = 20;
const THROUGHPUT_GOAL = 0.5;
/** Fewer 2xx answers than this in a run: its rate says little (the cache-off renders take seconds under load). */
const FEW_ANSWERS = 30;
const LIGHTHOUSE_GOAL = 95;
const CLS_LIMIT = 0.05;
const PHONE = { width: 375, height: 812 };

type Page = { name: string; path: string };

/** `cached`: the share of answers the page cache served (X-Page-Cache HIT, HIT-SHARED or STALE); undefined when none had the header. */
type Run = { rps: number; answers: number; non2xx: number; errors: number; statuses: string; cached?: number };

/** Pages of the section; the news item and article are found from the site's own links. */
async function pagesOf(base: string): Promise<Page[]> {
  const home = await (await fetch(base + "/")).text();
  const news = await (await fetch(base + "/news")).text();
  const article = /href="(\/articles\/[^"#?]+)"/.exec(home)?.[1];
  const newsItem = /href="(\/news\/[^"#?]+)"/.exec(news)?.[1];
  if (!article) console.log("warning: the home page links to no article; the article row measures / instead");
  if (!newsItem) console.log("warning: /news links to no news item; the news item row measures /news instead");
  return [
    { name: "home", path: "/" },
    { name: "news", path: "/news" },
    { name: "news item", path: newsItem ?? "/news" },
    { name: "article", path: article ?? "/" },
    { name: "section", path: "/culture" },
    { name: "programs", path: "/programs" },
    { name: "search", path: "/search?q=" + encodeURIComponent("الصحراء") },
  ];
}

/**
 * Waits until the server answers the static file quickly again: autocannon stops at its deadline without
 * waiting for the answers in flight, which the server still renders (seconds of work with the cache off).
 */
async function settle(base: string) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const started = performance.now();
    await (await fetch(base + "/favicon.svg")).arrayBuffer();
    if (performance.now() - started < 25) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function load(base: string, path: string, durationMs: number): Promise<Run> {
  await settle(base);
  let fromCache = 0;
  let withHeader = 0;
  const result = await autocannon({
    url: base + path,
    connections: CONNECTIONS,
    duration: durationMs / 1000,
    headers: { "accept-encoding": "gzip" },
    requests: [
      {
        method: "GET",
        onResponse: (_status, _body, _context, headers) => {
          const name = Object.keys(headers).find((h) => h.toLowerCase() === "x-page-cache");
          if (!name) return;
          withHeader++;
          if (/^(HIT|STALE)/.test(String(headers[name]))) fromCache++;
        },
      },
    ],
  });
  const statuses = Object.entries(result.statusCodeStats)
    .filter(([code]) => !code.startsWith("2"))
    .map(([code, { count }]) => `${count}×${code}`)
    .join(" ");
  return {
    rps: result["2xx"] / result.duration,
    answers: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statuses,
    cached: withHeader ? fromCache / withHeader : undefined,
  };
}

type Row = { page: Page; run: Run; staticRps: number; ratio: number };

/** Each page between two runs of the static file; the ratio is against their mean. */
async function throughputTable(base: string, pages: Page[], durationMs: number, title: string, { marked }: { marked: string[] }): Promise<Row[]> {
  // Warm up: first renders compile and fill caches (the page cache, when on), the JIT warms.
  for (const p of pages) for (let i = 0; i < 3; i++) await (await fetch(base + p.path, { headers: { "Accept-Encoding": "gzip" } })).arrayBuffer();
  await load(base, "/favicon.svg", 500);
  console.log(`\n${title}\n`);
  console.log("page        path                                  req/s   static req/s   × static   from cache   non-2xx  errors   ≥ 0.5×");
  let before = await load(base, "/favicon.svg", durationMs);
  const rows: Row[] = [];
  for (const page of pages) {
    const run = await load(base, page.path, durationMs);
    const after = await load(base, "/favicon.svg", durationMs);
    const staticRps = (before.rps + after.rps) / 2;
    const bad = before.non2xx + before.errors + after.non2xx + after.errors;
    const ratio = run.rps / staticRps;
    rows.push({ page, run, staticRps, ratio });
    const shownPath = decodeURIComponent(page.path).length > 36 ? decodeURIComponent(page.path).slice(0, 35) + "…" : decodeURIComponent(page.path);
    const mark = marked.includes(page.name) ? (run.non2xx + run.errors ? "invalid" : ratio >= THROUGHPUT_GOAL ? "yes" : "NO") : "";
    console.log(
      `${page.name.padEnd(11)} ${shownPath.padEnd(36)} ${run.rps.toFixed(0).padStart(7)}   ${staticRps.toFixed(0).padStart(12)}   ${ratio.toFixed(2).padStart(8)}   ${(run.cached === undefined ? "–" : `${(run.cached * 100).toFixed(0)}%`).padStart(10)}   ${String(run.non2xx).padStart(7)}  ${String(run.errors).padStart(6)}   ${mark}` +
        (run.statuses ? `   (${run.statuses})` : "") +
        (bad ? `   (static file: ${bad} non-2xx/errors)` : "") +
        (run.answers < FEW_ANSWERS ? `   (only ${run.answers} answers: too few for a figure, raise BENCH_MS)` : ""),
    );
    before = after;
  }
  return rows;
}

type Bytes = {
  js: number;
  inlineJs: number;
  css: number;
  fonts: number;
  images: number;
  html: number;
  other: number;
  requests: number;
  encodings: string;
  /** The JavaScript files with their bytes as sent. */
  scripts: { url: string; bytes: number }[];
};

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** The inline scripts of an HTML document that run (not JSON-LD or other data), gzip -9 together. */
function inlineScriptBytes(html: string): number {
  const bodies = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes]) => !/\bsrc\s*=/i.test(attributes) && !/\btype\s*=\s*["']?application\/(ld\+)?json/i.test(attributes))
    .map(([, , body]) => body)
    .filter((body) => body.trim() !== "");
  return bodies.length ? gzipSync(Buffer.from(bodies.join("\n")), { level: 9 }).length : 0;
}

/** What the browser downloaded for a page (encoded body bytes by type), with a fresh cache. */
async function browserBytes(browser: Browser, base: string, path: string): Promise<Bytes> {
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: "ar" });
  await context.addCookies([{ name: "i18nextLng", value: "ar", url: base }]);
  context.setDefaultTimeout(60_000);
  try {
    const page = await context.newPage();
    const bytes: Bytes = { js: 0, inlineJs: 0, css: 0, fonts: 0, images: 0, html: 0, other: 0, requests: 0, encodings: "", scripts: [] };
    const encodings = new Map<string, number>();
    const note = (what: string, encoding: string | null | undefined) =>
      encodings.set(`${what} ${encoding ?? "identity"}`, (encodings.get(`${what} ${encoding ?? "identity"}`) ?? 0) + 1);
    const pending: Promise<void>[] = [];
    page.on("requestfinished", (request) => {
      pending.push(
        (async () => {
          const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
          const body = sizes.responseBodySize;
          const type = request.resourceType();
          const contentType = (await response?.headerValue("content-type")) ?? "";
          const encoding = await response?.headerValue("content-encoding");
          bytes.requests++;
          if (type === "script" || /javascript/.test(contentType)) {
            bytes.js += body;
            bytes.scripts.push({ url: request.url(), bytes: body });
            note("js", encoding);
          } else if (type === "stylesheet" || /text\/css/.test(contentType)) bytes.css += body;
          else if (type === "font" || /font/.test(contentType)) bytes.fonts += body;
          else if (type === "image" || /^image\//.test(contentType)) bytes.images += body;
          else if (type === "document") {
            bytes.html += body;
            note("html", encoding);
          } else bytes.other += body;
        })().catch(() => {}),
      );
    });
    const response = await page.goto(base + path, { waitUntil: "load" });
    await page.waitForLoadState("networkidle");
    if (!response?.ok()) throw new Error(`${path}: HTTP ${response?.status()}`);
    bytes.inlineJs = inlineScriptBytes(await response.text());
    await Promise.all(pending);
    bytes.encodings = [...encodings]
      .sort()
      .map(([what, n]) => `${what}×${n}`)
      .join(", ");
    return bytes;
  } finally {
    await context.close();
  }
}

/** Without a browser: the script, module-preload and stylesheet URLs of the HTML, each gzip -9. */
async function htmlBytes(base: string, path: string): Promise<Bytes> {
  const html = await (await fetch(base + path, { headers: { Cookie: "i18nextLng=ar" } })).text();
  const gz = (b: ArrayBuffer) => gzipSync(Buffer.from(b), { level: 9 }).length;
  const urls = (re: RegExp) => new Set([...html.matchAll(re)].map((m) => m[1]));
  const js = urls(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+)"/g);
  for (const m of html.matchAll(/import\("([^"]+\.js)"\)/g)) js.add(m[1]);
  const css = urls(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g);
  const bytes: Bytes = {
    js: 0,
    inlineJs: inlineScriptBytes(html),
    css: 0,
    fonts: 0,
    images: 0,
    html: gzipSync(html, { level: 9 }).length,
    other: 0,
    requests: 1,
    encodings: "gzip -9 (computed)",
    scripts: [],
  };
  for (const u of js) {
    const size = gz(await (await fetch(new URL(u, base))).arrayBuffer());
    bytes.js += size;
    bytes.scripts.push({ url: u, bytes: size });
  }
  for (const u of css) bytes.css += gz(await (await fetch(new URL(u, base))).arrayBuffer());
  bytes.requests += js.size + css.size;
  return bytes;
}

async function bytesTable(base: string, pages: Page[]): Promise<Map<string, Bytes>> {
  const result = new Map<string, Bytes>();
  let browser: Browser | undefined;
  if (chromiumPath) {
    browser = await launchBrowser();
    console.log(`\nbytes per page as the browser downloaded them (headless Chromium, ${PHONE.width}×${PHONE.height} phone, Arabic, empty cache; KB as sent)`);
    console.log("JS total = JS files + inline scripts that run (not JSON-LD), the inline ones gzip -9; HTML includes those inline scripts too\n");
  } else {
    console.log(
      "\nbytes per page — no Chromium (CHROMIUM_PATH or /usr/bin/chromium): from the HTML's script and stylesheet URLs, gzip -9; fonts and images not counted\n",
    );
  }
  try {
    console.log("page         JS files  inline JS  JS total   CSS    fonts  images   HTML  other   total  requests  encodings");
    for (const page of pages) {
      let b: Bytes;
      try {
        b = browser ? await browserBytes(browser, base, page.path) : await htmlBytes(base, page.path);
      } catch (error) {
        console.log(`${page.name.padEnd(12)} failed: ${String(error)}`);
        continue;
      }
      result.set(page.name, b);
      const total = b.js + b.css + b.fonts + b.images + b.html + b.other;
      console.log(
        `${page.name.padEnd(12)} ${kb(b.js).padStart(8)}  ${kb(b.inlineJs).padStart(9)}  ${kb(b.js + b.inlineJs).padStart(8)}  ${kb(b.css).padStart(5)}  ${kb(b.fonts).padStart(6)}  ${kb(b.images).padStart(6)}  ${kb(b.html).padStart(5)}  ${kb(b.other).padStart(5)}  ${kb(total).padStart(6)}  ${String(b.requests).padStart(8)}  ${b.encodings}`,
      );
    }
  } finally {
    await browser?.close();
  }
  const article = result.get("article");
  if (article) {
    const js = (article.js + article.inlineJs) / 1024;
    console.log(`\narticle JavaScript: ${js.toFixed(1)} KB of the ${JS_BUDGET_KB} KB budget (${((js / JS_BUDGET_KB) * 100).toFixed(0)}%); the largest parts:`);
    const parts = [
      ...article.scripts.map((f) => ({ name: new URL(f.url, base).pathname, bytes: f.bytes })),
      { name: "inline scripts (gzip -9)", bytes: article.inlineJs },
    ];
    const shown = parts.sort((a, b) => b.bytes - a.bytes).slice(0, 8);
    for (const part of shown) console.log(`  ${kb(part.bytes).padStart(6)} KB  ${part.name}`);
    if (parts.length > shown.length)
      console.log(`  ${kb(parts.slice(shown.length).reduce((sum, p) => sum + p.bytes, 0)).padStart(6)} KB  ${parts.length - shown.length} more files`);
  }
  return result;
}

/** Which PostgreSQL the page section also runs on, and from which variable. */
export function pagesDatabaseFromEnv(): { url: string; variable: string } | undefined {
  for (const variable of ["DATABASE_URL", "BENCH_DATABASE_URL", "TEST_DATABASE_URL"]) {
    const url = process.env[variable];
    if (url && /^postgres(ql)?:\/\//.test(url)) return { url, variable };
  }
  return undefined;
}

const withoutPassword = (url: string) => {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
};

async function onThrowAwayDatabase(databaseUrl: string, run: (url: string, name: string) => Promise<void>) {
  const name = `bench_pages_${Date.now().toString(36)}_${crypto.randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  try {
    await run(url.toString(), name);
  } finally {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    await c.query(`drop database if exists "${name}" with (force)`);
    await c.end();
  }
}

/**
 * The page section on one database: the embedded one (no databaseUrl) or a throw-away database on the
 * PostgreSQL server of databaseUrl (`from` names the variable it came from, for the output).
 */
export async function benchPages({
  databaseUrl,
  from = "DATABASE_URL",
  durationMs = Math.max(1000, Number(process.env.BENCH_MS ?? 3000)),
}: { databaseUrl?: string; from?: string; durationMs?: number } = {}) {
  if (!databaseUrl) return section("embedded database (PGlite)", { DATABASE_URL: "" }, durationMs);
  try {
    await onThrowAwayDatabase(databaseUrl, (url, name) =>
      section(`PostgreSQL (throw-away database ${name} on ${withoutPassword(databaseUrl)}, from ${from})`, { DATABASE_URL: url }, durationMs),
    );
  } catch (error) {
    console.log(`\npages on PostgreSQL (${from}): failed or skipped: ${String(error)}`);
  }
}

async function section(label: string, env: Record<string, string>, durationMs: number) {
  console.log(`\n=== pages — ${label} ===`);
  const marked = ["home", "news", "article"];
  let warm: Row[] = [];
  let bytes = new Map<string, Bytes>();
  let lighthouse: Map<string, LighthouseFigures> | undefined;
  let pages: Page[] = [];
  for (const mode of ["warm", "cold"] as const) {
    const server = await startServer({
      LOG_LEVEL: "warn",
      SEARCH_RATE_LIMIT: "10000,100000",
      ...env,
      ...(mode === "cold" ? { PAGE_CACHE: "off" } : { PAGE_CACHE: "on" }),
    });
    try {
      const base = server.url;
      pages = await pagesOf(base);
      const title = `throughput, page cache ${mode === "warm" ? "warm" : "off (PAGE_CACHE=off: every request renders)"} — ${label}; autocannon ${CONNECTIONS} connections, Accept-Encoding: gzip, ${durationMs} ms per run`;
      const rows = await throughputTable(base, pages, durationMs, title, { marked });
      if (mode === "warm") {
        warm = rows;
        bytes = await bytesTable(base, pages);
        // The page cache is warm from the throughput runs; fill it for the Arabic cookie Lighthouse sends too.
        const lighthousePages = pages.filter((p) => p.name === "home" || p.name === "article");
        for (const p of lighthousePages) await (await fetch(base + p.path, { headers: { Cookie: "i18nextLng=ar", "Accept-Encoding": "gzip" } })).arrayBuffer();
        lighthouse = await benchLighthouse(base, lighthousePages);
      }
    } finally {
      await server.stop();
      // startServer made this data folder for this run (a copy or a fresh seed): nothing else uses it.
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    }
  }

  console.log(`\nsummary — ${label}`);
  const line = (status: string, text: string) => console.log(`${status.padEnd(7)} ${text}`);
  for (const name of marked) {
    const row = warm.find((r) => r.page.name === name);
    if (!row) {
      line("MISSING", `${name}: no throughput figure`);
      continue;
    }
    const invalid = row.run.non2xx + row.run.errors;
    line(
      invalid ? "INVALID" : row.ratio >= THROUGHPUT_GOAL ? "PASS" : "FAIL",
      `${name} (${decodeURIComponent(row.page.path)}) serves ≥ ${THROUGHPUT_GOAL}× /favicon.svg, cache warm: ${row.ratio.toFixed(2)}× (${row.run.rps.toFixed(0)} vs ${row.staticRps.toFixed(0)} req/s)` +
        (invalid ? `, ${row.run.non2xx} non-2xx and ${row.run.errors} errors` : ""),
    );
  }
  const article = bytes.get("article");
  if (article) {
    const js = (article.js + article.inlineJs) / 1024;
    line(
      js <= JS_BUDGET_KB ? "PASS" : "FAIL",
      `article JavaScript (files + inline scripts, compressed) ≤ ${JS_BUDGET_KB} KB: ${js.toFixed(1)} KB${chromiumPath ? "" : " (no Chromium: from the HTML)"}`,
    );
  } else line("MISSING", "article JavaScript: not measured");
  for (const name of ["home", "article"]) {
    const f = lighthouse?.get(name);
    if (!f) {
      line("SKIPPED", `Lighthouse on ${name}: ${lighthouse ? "no successful run" : "not run"}`);
      continue;
    }
    line(
      f.score >= LIGHTHOUSE_GOAL ? "PASS" : "FAIL",
      `Lighthouse mobile performance ≥ ${LIGHTHOUSE_GOAL} on the Arabic ${name} (goal 100): ${f.score} (median of ${f.runs}, ${f.scoreMin}–${f.scoreMax})`,
    );
    line(f.cls < CLS_LIMIT ? "PASS" : "FAIL", `CLS < ${CLS_LIMIT} on the Arabic ${name}: ${f.cls.toFixed(3)}`);
  }
}
