/**
 * The full-site walk of issue 14's "Done means": every public page in Arabic, French and English, at 320, 375,
 * 768, 1024, 1280 and 1440 px — no horizontal overflow, nothing cut off in the header, no axe finding of any
 * impact — and the same pages with JavaScript disabled, where every internal link answers and every form has
 * a method and an action that answer.
 *
 * One file per language and one without JavaScript (walk-*.e2e.test.ts), so that the browser workers share the
 * walk instead of one of them carrying it alone at the end of the run.
 *
 * Budget: about a minute and a half of one worker per file on a quiet machine. So each page is loaded once per
 * language and then resized through the six widths (the layout checks are one evaluate each); axe, the costly
 * part, runs on the whole page at two widths (375 and 1280, one each side of the layouts' breakpoints). At the
 * other four it runs on the header, the one part whose markup changes with the width, on a page without
 * hydration and on a hydrated one: the header is the same component on every page, so checking it on all 25
 * tripled the walk and found nothing the two could not. Findings are collected and compared with [] at the end
 * of each test, so one run lists all of them rather than the first.
 */
import fs from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import { hasChromium, launchBrowser } from "#tests/e2e/support/browser.ts";
import { projectRoot } from "#tests/e2e/support/server.ts";
import { allA11yViolations } from "#tests/e2e/support/a11y.ts";
import { isLocalizable, localizedPath, splitAddress } from "#domain/addresses.ts";

const base = sharedServer().baseUrl;
const LANGS = ["ar", "fr", "en"] as const;
export type Lang = (typeof LANGS)[number];
const WIDTHS = [320, 375, 768, 1024, 1280, 1440] as const;
const AXE_WIDTHS = new Set<number>([375, 1280]);
// Where the header alone is checked at the other widths: home is served without React, /news is hydrated.
const HEADER_AXE_PAGES = new Set<string>(["/", "/news"]);
const HEIGHT = 800;
const NOT_FOUND = "/no-such-page-for-the-walk";

// The routes of app/routes.ts under the public layout that a reader reaches without an account or a token
// (newsletter/confirm needs a token from an e-mail; the auth screens are the newsroom's door, not the reading site).
const LISTINGS = ["/", "/news", "/culture", "/politics", "/literature", "/emirates", "/programs", "/media", "/videos", "/opinion", "/facebook"];
const OTHERS = ["/contact", `/search?q=${encodeURIComponent("امارة ادرار")}`, "/privacy", "/terms", "/sitemap", NOT_FOUND];
// One item of each detail type, taken from the listing pages' links so the walk follows what the seed holds.
const DETAIL_TYPES = ["news", "articles", "programs", "podcasts", "coverage"] as const;

let pages: string[] = [];
// Detail types that no listing page nor the HTML sitemap links to (found only in sitemap.xml): a dead end for a reader.
let unlinkedTypes: string[] = [];

async function discoverDetails(): Promise<{ paths: string[]; unlinked: string[] }> {
  const found = new Map<string, string>();
  const collect = (text: string, pattern: RegExp) => {
    for (const m of text.matchAll(pattern)) if (!found.has(m[1])) found.set(m[1], `/${m[1]}/${m[2]}`);
  };
  for (const listing of ["/", "/news", "/programs", "/media", "/culture", "/politics", "/emirates", "/opinion", "/literature", "/videos", "/sitemap"]) {
    collect(await (await fetch(base + listing)).text(), /href="\/(news|articles|programs|podcasts|coverage)\/([^"/?#]+)"/g);
    if (found.size === DETAIL_TYPES.length) break;
  }
  const unlinked = DETAIL_TYPES.filter((t) => !found.has(t));
  if (unlinked.length > 0) {
    const inSitemap = /<loc>[^<]*?\/(news|articles|programs|podcasts|coverage)\/([^<"/?#]+)<\/loc>/g;
    const index = await (await fetch(`${base}/sitemap.xml`)).text();
    collect(index, inSitemap);
    for (const [, loc] of index.matchAll(/<loc>([^<]+\.xml)<\/loc>/g)) collect(await (await fetch(new URL(new URL(loc).pathname, base))).text(), inSitemap);
  }
  expect([...found.keys()].sort(), "the site has an item of each detail type").toEqual([...DETAIL_TYPES].sort());
  return { paths: DETAIL_TYPES.map((t) => found.get(t)!), unlinked };
}

/**
 * A browser whose own language is none of the site's: the page's address alone decides the language shown
 * (issue 42), so a page in the wrong language shows up here rather than being hidden by a matching cookie.
 */
async function languageContext(browser: Browser, javaScriptEnabled: boolean): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: WIDTHS[0], height: HEIGHT }, locale: "de-DE", javaScriptEnabled });
  context.setDefaultTimeout(60_000);
  return context;
}

/** Loads a page (its language-neutral path) at its address in `lang`, as a reader would; returns the findings of the load itself (status, language). */
async function open(page: Page, path: string, lang: Lang, hydrate: boolean): Promise<string[]> {
  const res = await page.goto(base + localizedPath(lang, path));
  const findings: string[] = [];
  const status = res?.status() ?? 0;
  const expected = path === NOT_FOUND ? 404 : 200;
  if (status !== expected) findings.push(`status ${status}, expected ${expected}`);
  if (hydrate) await page.waitForSelector("html[data-hydrated]", { state: "attached" });
  const htmlLang = await page.evaluate(() => document.documentElement.lang);
  if (htmlLang !== lang) findings.push(`<html lang="${htmlLang}">`);
  return findings;
}

/**
 * A step that runs inside the page (page.evaluate has no time limit of its own: a page whose frames stop coming
 * would hold the walk until the test's 15 minutes end, saying nothing). After a minute the walk stops with the page,
 * the width and the step named, and a screenshot of the page kept in tests/e2e/screenshots/.
 */
async function answersWithin<T>(page: Page, step: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const file = join(projectRoot, "tests/e2e/screenshots", `walk-stuck-${step.replace(/[^a-z0-9]+/gi, "-").slice(0, 80)}.png`);
      fs.mkdirSync(dirname(file), { recursive: true });
      void page
        .screenshot({ path: file, timeout: 10_000 })
        .catch(() => undefined)
        .finally(() => reject(new Error(`the page gave no answer within 60 s: ${step} (${page.url()})`)));
    }, 60_000);
  });
  try {
    return await Promise.race([work, stuck]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * At the current width: how far the document is wider than the viewport, and the header's controls that are
 * drawn but not wholly visible — outside the viewport or clipped by an ancestor that does not let overflow show
 * (a scrolling nav strip counts: an entry scrolled out of view is cut off for a reader who cannot see it).
 * Controls not drawn (display:none, a closed "more" menu, visibility:hidden) and the 1 px visually-hidden skip
 * link are not on screen and so cannot be cut.
 */
async function layoutFindings(page: Page): Promise<{ overflow: number; cut: string[]; culprits: string[] }> {
  return page.evaluate(async () => {
    // Two frames: what the page does on a resize (observers, media-query listeners) lands before measuring.
    for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(() => r(null)));
    const root = document.documentElement;
    const vw = root.clientWidth;
    const cut: string[] = [];
    const header = document.querySelector('[data-testid="site-header"]') ?? document.querySelector("header");
    const label = (el: Element) => {
      const id = el.getAttribute("data-testid");
      const text = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30);
      return `${el.tagName.toLowerCase()}${id ? `[data-testid="${id}"]` : ""} "${text}"`;
    };
    for (const el of header?.querySelectorAll('a[href], button, input:not([type="hidden"]), select, summary, [role="button"]') ?? []) {
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) continue;
      if (r.left < -0.5 || r.right > vw + 0.5) {
        cut.push(`${label(el)} outside the viewport (${Math.round(r.left)}–${Math.round(r.right)} of ${vw})`);
        continue;
      }
      for (let a = el.parentElement; a && a !== root && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        const box = a.getBoundingClientRect();
        const clipsX = s.overflowX !== "visible" && (r.left < box.left - 0.5 || r.right > box.right + 0.5);
        const clipsY = s.overflowY !== "visible" && (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5);
        if (clipsX || clipsY) {
          cut.push(`${label(el)} clipped by ${a.tagName.toLowerCase()}.${[...a.classList].slice(0, 4).join(".")} (overflow ${s.overflowX}/${s.overflowY})`);
          break;
        }
      }
    }
    const overflow = root.scrollWidth - vw;
    // What sticks out: the innermost elements beyond the viewport's edges, so the finding names a cause.
    const culprits: string[] = [];
    if (overflow > 0) {
      const out = [...document.body.querySelectorAll("*")].filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && (r.right > vw + 1 || r.left < -1);
      });
      for (const el of out.filter((el) => !out.some((o) => o !== el && el.contains(o))).slice(0, 2)) {
        culprits.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}.${[...el.classList].slice(0, 4).join(".")}`);
      }
    }
    return { overflow, cut, culprits };
  });
}

/**
 * A page's links and its `<head>` in its own language (issue 42): every link and form to a reading page goes to
 * that page's address in the language shown (the language toggle alone leads to another), the canonical URL is the
 * page's own address, and an indexable page names its versions (`hreflang`, with `x-default`) among them itself.
 */
async function addressFindings(page: Page, lang: Lang, path: string): Promise<string[]> {
  const findings: string[] = [];
  const targets = await page.$$eval("a[href]:not([data-language-toggle]), form[action]", (els) =>
    els.map((el) => ({ tag: el.tagName.toLowerCase(), raw: el.getAttribute(el.tagName === "A" ? "href" : "action") ?? "" })),
  );
  for (const { tag, raw } of targets) {
    const url = new URL(raw, page.url());
    if (url.origin !== base) continue;
    const { lang: named, path: neutral } = splitAddress(url.pathname);
    if (!isLocalizable(neutral)) continue;
    if ((named ?? "ar") !== lang) findings.push(`${lang} ${path}: <${tag}> to ${raw} leads to the ${named ?? "ar"} page`);
  }
  const toggle = new URL((await page.getAttribute('[data-testid="language-toggle"]', "href")) ?? "", base);
  const other = new URL(localizedPath(lang === "fr" ? "ar" : "fr", new URL(page.url()).pathname) + new URL(page.url()).search, base);
  // The same page and query (however its spaces are written) in the other language.
  if (toggle.pathname !== other.pathname || toggle.searchParams.toString() !== other.searchParams.toString())
    findings.push(`${lang} ${path}: the language toggle leads to ${toggle.pathname}${toggle.search}`);
  if (path === NOT_FOUND) return findings;
  const head = await page.evaluate(() => ({
    canonical: document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.getAttribute("href") ?? null,
    alternates: [...document.querySelectorAll<HTMLLinkElement>('link[rel="alternate"][hreflang]')].map((l) => [l.hreflang, l.getAttribute("href")]),
    noindex: /noindex/.test(document.querySelector('meta[name="robots"]')?.getAttribute("content") ?? ""),
  }));
  const own = head.canonical ? new URL(head.canonical) : null;
  if (!own || (splitAddress(own.pathname).lang ?? "ar") !== lang) findings.push(`${lang} ${path}: canonical ${head.canonical}`);
  const versions = new Map(head.alternates as [string, string][]);
  if (!head.noindex && (versions.get(lang) !== head.canonical || !versions.has("x-default")))
    findings.push(`${lang} ${path}: hreflang ${JSON.stringify(head.alternates)} lacks its own address ${head.canonical} or x-default`);
  return findings;
}

/** Every public page in one language, with JavaScript, at every width. */
export function walkWithJavaScript(lang: Lang) {
  describe.skipIf(!hasChromium)(`the full-site walk in ${lang}: every public page and width`, () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
      pages = [...LISTINGS, ...(await discoverDetails()).paths, ...OTHERS];
    });
    afterAll(async () => browser?.close());

    // A limit for a hang, not a measure: 25 pages at six widths take one to two minutes of one worker on a quiet
    // 2-core machine, and several times that while stress-ng and the other workers load it.
    it(`${lang}: fits every width, nothing cut off in the header, no axe finding`, { timeout: 900_000 }, async () => {
      const context = await languageContext(browser, true);
      const page = await context.newPage();
      // One line per finding and page, with the widths it shows at: the same cause at six widths is one thing to fix.
      const found = new Map<string, number[]>();
      const note = (path: string, width: number | null, what: string) => {
        const key = `${lang} ${path}: ${what}`;
        found.set(key, [...(found.get(key) ?? []), ...(width === null ? [] : [width])]);
      };
      try {
        for (const path of pages) {
          await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
          for (const f of await open(page, path, lang, true)) note(path, null, f);
          for (const width of WIDTHS) {
            const resized = page.setViewportSize({ width, height: HEIGHT }).then(() => layoutFindings(page));
            const { overflow, cut, culprits } = await answersWithin(page, `${lang} ${path} @${width}: resizing and measuring`, resized);
            if (overflow > 0) note(path, width, `wider than the viewport (${culprits.join(", ")})`);
            for (const c of cut) note(path, width, `header ${c}`);
            const scope = AXE_WIDTHS.has(width) ? undefined : HEADER_AXE_PAGES.has(path) ? '[data-testid="site-header"]' : null;
            if (scope === null) continue;
            for (const v of await answersWithin(page, `${lang} ${path} @${width}: axe`, allA11yViolations(page, scope)))
              note(path, width, `axe ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
          }
        }
      } finally {
        await context.close();
      }
      const findings = [...found].map(([key, widths]) => (widths.length ? `${key} @${widths.join(",")}` : key));
      expect(findings, findings.join("\n")).toEqual([]);
    });
  });
}

/** Every public page in the three languages without JavaScript: every internal link answers, every form works. */
export function walkWithoutJavaScript() {
  describe.skipIf(!hasChromium)("the full-site walk without JavaScript", () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
      const details = await discoverDetails();
      pages = [...LISTINGS, ...details.paths, ...OTHERS];
      unlinkedTypes = details.unlinked;
    });
    afterAll(async () => browser?.close());

    it(
      "without JavaScript (375 px): every page loads, every internal link answers, every form has a working method and action",
      { timeout: 900_000 },
      async () => {
        const findings: string[] = unlinkedTypes.map(
          (t) => `neither the listing pages nor the HTML sitemap link to an item of type ${t} (found only in sitemap.xml)`,
        );
        // A link is checked once, in the first language it was seen in: its target does not depend on the language.
        const links = new Map<string, { lang: Lang; from: string }>();
        const forms = new Map<string, { lang: Lang; from: string; method: string | null; action: string | null; query: string }>();
        const contexts = new Map<Lang, BrowserContext>();
        try {
          for (const lang of LANGS) {
            const context = await languageContext(browser, false);
            contexts.set(lang, context);
            const page = await context.newPage();
            await page.setViewportSize({ width: 375, height: HEIGHT });
            for (const path of pages) {
              for (const f of await open(page, path, lang, false)) findings.push(`${lang} ${path}: ${f}`);
              if ((await page.locator("main").count()) === 0) findings.push(`${lang} ${path}: no <main> without JavaScript`);
              // The 404 page's toggle leads to the 404 page in the other language, by design.
              const hrefs = await page.$$eval(path === NOT_FOUND ? "a[href]:not([data-language-toggle])" : "a[href]", (as) =>
                as.map((a) => (a as HTMLAnchorElement).href),
              );
              const here = new URL(page.url());
              findings.push(...(await addressFindings(page, lang, path)));
              for (const href of hrefs) {
                const url = new URL(href);
                // A link within the page (the skip link) is checked here: requesting the page again proves nothing
                // new, and the 404 page answers 404 by design.
                if (url.origin === base && url.pathname + url.search === here.pathname + here.search) {
                  const id = decodeURIComponent(url.hash.slice(1));
                  if (id && (await page.locator(`[id="${id}"]`).count()) === 0) findings.push(`${lang} ${path}: link ${url.hash} → no element with that id`);
                  continue;
                }
                if (url.origin !== base || links.has(url.pathname + url.search + url.hash)) continue;
                links.set(url.pathname + url.search + url.hash, { lang, from: path });
              }
              const pageForms = await page.$$eval("form", (fs) =>
                fs.map((f) => {
                  const form = f as HTMLFormElement;
                  const params = new URLSearchParams();
                  for (const el of form.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(
                    "input[name], select[name], textarea[name]",
                  )) {
                    if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio") && !el.checked) continue;
                    if (el.disabled || (el instanceof HTMLInputElement && (el.type === "submit" || el.type === "file"))) continue;
                    // A required field left empty would stop the browser's submit: a reader types something first.
                    params.append(el.name, el.value || (el.required ? "موريتانيا" : ""));
                  }
                  return { method: form.getAttribute("method"), action: form.getAttribute("action"), query: params.toString() };
                }),
              );
              for (const f of pageForms) {
                const key = `${f.method} ${f.action}`;
                if (!forms.has(key)) forms.set(key, { lang, from: path, ...f });
              }
            }
          }

          for (const [key, f] of forms) {
            if (!f.method || f.action === null) {
              findings.push(`${f.lang} ${f.from}: <form method="${f.method}" action="${f.action}"> lacks a method or an action`);
              continue;
            }
            const action = new URL(f.action, base + f.from);
            const request = contexts.get(f.lang)!.request;
            if (f.method.toLowerCase() === "get") {
              action.search = f.query;
              const res = await request.get(action.href);
              if (res.status() >= 400) findings.push(`${f.lang} ${f.from}: GET form ${key} submitted as ${action.pathname}${action.search} → ${res.status()}`);
            } else {
              // Not submitted (it would send a message or change the reader's settings): its route must exist.
              const res = await request.get(action.href, { maxRedirects: 0 });
              if (res.status() >= 500 || res.status() === 404) findings.push(`${f.lang} ${f.from}: ${key}: its action answers GET with ${res.status()}`);
            }
          }

          const queue = [...links];
          const worker = async () => {
            for (let next = queue.shift(); next; next = queue.shift()) {
              const [link, { lang, from }] = next;
              const url = new URL(link, base);
              const request = contexts.get(lang)!.request;
              // Files (images, audio, video, feeds) are asked for their headers only: their bodies prove nothing more.
              const isFile = /\.[a-z0-9]{2,5}$/i.test(url.pathname);
              const res = isFile ? await request.head(url.href) : await request.get(url.href);
              if (res.status() >= 400) {
                findings.push(`${lang} ${from}: link ${link} → ${res.status()}`);
              } else if (url.hash.length > 1 && !isFile) {
                const id = decodeURIComponent(url.hash.slice(1));
                if (!(await res.text()).includes(`id="${id}"`)) findings.push(`${lang} ${from}: link ${link} → no element with id "${id}"`);
              }
              await res.dispose();
            }
          };
          // A few at a time: the server renders them on one core, the test's own work is waiting.
          await Promise.all(Array.from({ length: 4 }, worker));
        } finally {
          await Promise.all([...contexts.values()].map((c) => c.close()));
        }
        expect(findings, findings.join("\n")).toEqual([]);
      },
    );
  });
}
