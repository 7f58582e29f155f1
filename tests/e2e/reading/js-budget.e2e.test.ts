/**
 * The JavaScript budget of every public page type (issue 30, "Done means"; decisions 0115 and 0131): what a
 * reader's browser downloads as JavaScript — each script file and modulepreload, gzip, plus the inline scripts
 * gzip — over real HTTP from the built server, in Arabic. At most 10 KB per page; home and the detail pages at
 * most 5 KB. The account pages and the back-office stay React applications and are not public reading pages.
 */
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import { startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { validInput } from "#tests/helpers/content.ts";
import { categories } from "#server/db/schema.server.ts";

const base = sharedServer().baseUrl;
const KB = 1024;
const PROGRAM_WITH_VIDEO = "/programs/khutwa-caravan-trail-ouadane-tichitt";

const html = async (path: string, origin = base) => {
  const res = await fetch(origin + path, { headers: { "accept-encoding": "gzip" } });
  // The not-found page answers 404, with its page.
  expect([200, 404], path).toContain(res.status);
  return res.text();
};

/** Inline scripts that run (JSON-LD and speculation rules are data), and the files: module and classic scripts, modulepreloads. */
function scriptsOf(page: string) {
  const inline = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attrs, body]) => !/\bsrc=|application\/ld\+json|speculationrules/.test(attrs) && body.trim())
    .map((m) => m[2]);
  const files = new Set([
    ...[...page.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]),
    ...[...page.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]),
    ...[...page.matchAll(/<link\b[^>]*href="([^"]+)"[^>]*rel="modulepreload"/g)].map((m) => m[1]),
  ]);
  return { inline, files: [...files] };
}

/** Gzip bytes of a page's JavaScript: files (as gzip -9 would send them) plus its inline scripts. */
async function javaScriptOf(path: string, origin = base) {
  const page = await html(path, origin);
  const { inline, files } = scriptsOf(page);
  let fileBytes = 0;
  let liveBytes = 0;
  for (const url of files) {
    const bytes = gzipSync(Buffer.from(await (await fetch(new URL(url, origin))).arrayBuffer()), { level: 9 }).length;
    fileBytes += bytes;
    if (LIVE_SCRIPT.test(url)) liveBytes += bytes;
  }
  const inlineBytes = inline.length ? gzipSync(inline.join("\n"), { level: 9 }).length : 0;
  return { total: fileBytes + inlineBytes, liveBytes, files, hydrates: page.includes("__reactRouterContext") };
}

/**
 * The live scripts (issue 44): a live coverage's (live.js) and, on every page while something is live or breaking,
 * the header ticker's (ticker.js). The issue gives them at most 3 KB on top of a page's own budget.
 */
const LIVE_SCRIPT = /\/assets\/(live|ticker)-[\w-]+\.js$/;
const LIVE_BUDGET = 3 * KB;

/** The first link of `type` in the page at `from`. */
async function firstLink(from: string, type: string) {
  const found = new RegExp(`href="(/${type}/[^"/?#]+)"`).exec(await html(from))?.[1];
  expect(found, `a /${type}/ link on ${from}`).toBeTruthy();
  return found!;
}

/** A tag page: the first tag linked from one of the detail pages the sitemap lists. */
async function tagPage() {
  const details = [...(await html("/sitemap")).matchAll(/href="(\/(?:news|articles|coverage)\/[^"/?#]+)"/g)].map((m) => m[1]);
  for (const detail of details.slice(0, 30)) {
    const tag = /href="(\/tags\/[^"/?#]+)"/.exec(await html(detail))?.[1];
    if (tag) return tag;
  }
  throw new Error("no tag linked from the first 30 detail pages");
}

type Row = { name: string; path: string | (() => Promise<string>); budget: number; players?: true };

/**
 * Every public page type. `players` marks the pages the video-player work of issue 30 converts (helper
 * "players": /media, /videos, /politics, /emirates, the detail pages with a video); their rows are checked
 * like the others.
 */
const ROWS: Row[] = [
  { name: "home", path: "/", budget: 5 * KB },
  { name: "news detail", path: () => firstLink("/sitemap", "news"), budget: 5 * KB },
  { name: "article detail", path: () => firstLink("/sitemap", "articles"), budget: 5 * KB },
  { name: "coverage detail", path: () => firstLink("/sitemap", "coverage"), budget: 5 * KB },
  { name: "podcast detail", path: () => firstLink("/programs", "podcasts"), budget: 5 * KB },
  { name: "program detail with a video", path: PROGRAM_WITH_VIDEO, budget: 5 * KB, players: true },
  { name: "/news", path: "/news", budget: 10 * KB },
  { name: "/news?page=2", path: "/news?page=2", budget: 10 * KB },
  { name: "/culture", path: "/culture", budget: 10 * KB },
  { name: "/literature", path: "/literature", budget: 10 * KB },
  { name: "/opinion", path: "/opinion", budget: 10 * KB },
  { name: "/programs", path: "/programs", budget: 10 * KB },
  { name: "/search", path: `/search?q=${encodeURIComponent("الصحراء")}`, budget: 10 * KB },
  { name: "/contact", path: "/contact", budget: 10 * KB },
  { name: "/facebook", path: "/facebook", budget: 10 * KB },
  { name: "author page", path: () => firstLink("/", "authors"), budget: 10 * KB },
  { name: "tag page", path: tagPage, budget: 10 * KB },
  { name: "/privacy", path: "/privacy", budget: 10 * KB },
  { name: "/terms", path: "/terms", budget: 10 * KB },
  { name: "/sitemap", path: "/sitemap", budget: 10 * KB },
  { name: "not found", path: "/404", budget: 10 * KB },
  { name: "/media", path: "/media", budget: 10 * KB, players: true },
  { name: "/videos", path: "/videos", budget: 10 * KB, players: true },
  { name: "/politics", path: "/politics", budget: 10 * KB, players: true },
  { name: "/emirates", path: "/emirates", budget: 10 * KB, players: true },
];

describe("the JavaScript budget of every public page type (gzip: files, modulepreloads and inline scripts)", () => {
  for (const row of ROWS) {
    it(`${row.name}: at most ${row.budget / KB} KB, and no React in the browser`, async () => {
      const path = typeof row.path === "string" ? row.path : await row.path();
      const js = await javaScriptOf(path);
      expect(js.hydrates, `${path} hydrates`).toBe(false);
      // Whether the shared server has a live coverage or a breaking item at this moment (other files post them)
      // decides whether the ticker's script is here: the page's own budget is checked without it, and it within its own.
      const own = js.total - js.liveBytes;
      expect(own, `${path}: ${own} bytes of JavaScript besides the live scripts (${js.files.join(", ")})`).toBeLessThanOrEqual(row.budget);
      expect(js.liveBytes, `${path}: the live scripts`).toBeLessThanOrEqual(LIVE_BUDGET);
    });
  }
});

/**
 * A live coverage (issue 44): its page adds the live script, at most 3 KB on top of a detail page's budget; every
 * page while something is live adds the header ticker's script (on the home page here, within its own budget).
 */
describe("the JavaScript budget of a live coverage's page and of the ticker", () => {
  let server: AuthServer<"chief">;
  let coveragePath = "";
  beforeAll(async () => {
    let categoryId = 0;
    server = await startAuthServer({
      personas: { chief: { email: "chief@budget.live.test", password: "Passw0rdA", role: "admin", name: "مريم" } },
      prepare: async (db) => {
        const [c] = await db
          .insert(categories)
          .values({ name: "سياسة", nameFr: "Politique", slug: "politics", type: "politics" })
          .returning({ id: categories.id });
        categoryId = c.id;
      },
    });
    const send = (method: string, path: string, body: unknown) =>
      fetch(server.url + path, {
        method,
        headers: { origin: server.url, cookie: server.personas.chief.cookie, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const created = await send("POST", "/api/admin/coverage", validInput("coverage", categoryId, "تغطية مباشرة لميزانية السكربت"));
    expect(created.status).toBe(201);
    const coverage = (await created.json()) as { id: number; url: string };
    expect((await send("PATCH", `/api/admin/coverage/${coverage.id}`, { live: true })).status).toBe(200);
    expect((await send("POST", `/api/admin/coverage/${coverage.id}/entries`, { body: "<p>أول تحديث</p>" })).status).toBe(201);
    coveragePath = coverage.url;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("the live page: at most 5 KB + 3 KB, the live script itself at most 3 KB, and no React in the browser", async () => {
    const js = await javaScriptOf(coveragePath, server.url);
    expect(js.hydrates).toBe(false);
    expect(
      js.files.some((f) => /\/live-[\w-]+\.js$/.test(f)),
      js.files.join(", "),
    ).toBe(true);
    expect(js.liveBytes, `live scripts: ${js.liveBytes} bytes`).toBeLessThanOrEqual(LIVE_BUDGET);
    expect(js.total - js.liveBytes, `${js.total} bytes (${js.files.join(", ")})`).toBeLessThanOrEqual(5 * KB);
  });

  it("the home page with the ticker: still at most 5 KB", async () => {
    const js = await javaScriptOf("/", server.url);
    expect(
      js.files.some((f) => /\/ticker-[\w-]+\.js$/.test(f)),
      js.files.join(", "),
    ).toBe(true);
    expect(js.total, `${js.total} bytes (${js.files.join(", ")})`).toBeLessThanOrEqual(5 * KB);
  });
});
