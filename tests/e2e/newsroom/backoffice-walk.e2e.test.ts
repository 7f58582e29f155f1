/**
 * The back-office walk of issue 46: every screen of app/routes.ts under /admin, signed in as an administrator, in
 * Arabic and French on a 375 px phone (the dashboard also with the phone menu open), then the same loaded page
 * widened to 1280 px. On each: the document no wider than the viewport (a finding names the elements that stick out
 * or whose text spills), no serious axe violation on the whole page (shell included: the same rules as the other
 * newsroom tests; at 1280 px on the dashboard only, for the side menu), and no text left in the other language.
 *
 * The language check reads what a sighted editor sees: the visible text nodes and the names a control shows or
 * says (placeholder, aria-label, title, alt), outside what is explicitly marked as another language (`lang`, the
 * language switch) and outside what an editor typed (inputs, the rich-text editor). Content is not UI: a run of
 * the other script found in what the staff APIs return for the seeded demo content and the test's own items
 * (titles, names, tags, categories, files, the audit log) is data, except a whole Arabic UI string that French says
 * otherwise and an Arabic comma between French words or names. On a French screen any other Arabic letter is a
 * finding; on an Arabic screen any Latin word is, except acronyms (CSV, URL…; not AM/PM) and the names of services,
 * formats, protocols and keys.
 *
 * One browser, one server, one page per language: each screen is loaded once and resized. The walk is in parts (the
 * dashboard, each content type, the compared revisions, the others), each a test that gathers its findings and
 * compares them with [] at its end, so one run lists them all, and a slow machine's time is counted per part.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { hasChromium, hydrated, PHONE, DESKTOP } from "#tests/e2e/support/browser.ts";
import { seriousA11yViolations } from "#tests/e2e/support/a11y.ts";
import { ALL_CONTENT_TYPES } from "#domain/content-types/index.ts";
import ar from "#domain/locales/ar/common.json" with { type: "json" };
import fr from "#domain/locales/fr/common.json" with { type: "json" };
import { keepEvidence, signedInPage, startNewsroomBrowser, stopNewsroomBrowser, type NewsroomServer } from "./support.ts";

const TITLE = "مخطوطات شنقيط تعود إلى المكتبة الوطنية بعد الترميم";
const EXCERPT = "مقتطف المقال للاختبار";
const RETITLED = "مخطوطات شنقيط والمكتبة الوطنية: ما بعد الترميم";
// A long address pasted in a body, as editors do: an unbreakable word the revisions' diff must wrap.
const LONG_LINK = "https://www.saharamedias.net/archives/manuscrits-de-chinguetti-restauration-bibliotheque-nationale-2026-11-28";
const BODY = `<p>عادت مخطوطات شنقيط إلى المكتبة الوطنية بعد عام من الترميم.</p><p>${LONG_LINK}</p>`;
const BODY_EDITED = `<p>عادت مخطوطات شنقيط إلى المكتبة الوطنية في نواكشوط بعد عام من الترميم الدقيق.</p><p>${LONG_LINK}?source=revision</p>`;

// Latin words an Arabic screen may show: services, formats, protocols and keyboard keys, named by their own names
// (Arabic writes them so: «اضغط Enter», «صورة WebP», «Apple Podcasts»).
const LATIN_NAMES = new Set([
  ...["Facebook", "YouTube", "Bunny", "Stream", "Google", "WhatsApp", "Telegram", "Instagram", "TikTok", "Apple", "Podcasts", "Spotify"],
  ...["WebP", "WebVTT", "WEBVTT", "http", "https"],
  ...["Enter", "Backspace", "Tab", "Esc", "Escape", "Shift", "Ctrl", "Delete"],
]);

/**
 * The walk in parts, each a test with its own time: the dashboard, each content type's five screens, the
 * revisions' comparisons, and the rest. Known before the server starts, so the tests can be declared.
 */
const GROUPS = ["dashboard", ...ALL_CONTENT_TYPES.map((t) => t.segment), "compared revisions", "other"] as const;
type Screen = { path: string; name: string; group: (typeof GROUPS)[number] };

/** Every string of a locale file by its key. */
function strings(node: unknown, prefix = "", into = new Map<string, string>()): Map<string, string> {
  if (typeof node === "string") into.set(prefix, node);
  else if (node && typeof node === "object") for (const [k, v] of Object.entries(node)) strings(v, prefix ? `${prefix}.${k}` : k, into);
  return into;
}

// The Arabic UI's strings that French says otherwise: one of them whole on a French screen is a string left
// untranslated, even when some title happens to use the same words (a single word such as «العربية» is in the data).
const ARABIC_ONLY = (() => {
  const french = strings(fr);
  const only = new Set<string>();
  for (const [key, value] of strings(ar))
    if (!value.includes("{{") && french.get(key.replace(/_(zero|two|few|many)$/, "_other")) !== value) only.add(value.trim());
  return only;
})();

describe.skipIf(!hasChromium)("the back-office at 375 px in both languages", () => {
  let browser: Browser;
  let server: NewsroomServer<"admin">;
  let base: string;
  let screens: Screen[] = [];
  // What the staff APIs return: the content the screens show, which is in whatever language its author wrote it.
  let data = "";

  const api = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(base + path, {
      ...init,
      headers: { cookie: server.personas.admin.cookie, origin: base, "content-type": "application/json", ...init.headers },
    });
    return res;
  };

  beforeAll(async () => {
    ({ server, base, browser } = await startNewsroomBrowser({
      admin: { email: "walk-admin@newsroom.test", password: "Adm1nPassword", role: "admin", name: "سلمى الإدارية" },
    }));
    // An article of the test's own, edited twice, so its editor and its revisions (and the audit log, the dashboard) have something to show.
    const made = await api("/api/admin/articles", {
      method: "POST",
      body: JSON.stringify({ title: TITLE, excerpt: EXCERPT, content: BODY, category_id: "1", status: "published" }),
    });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: number };
    // Then most of its fields at once (a French title, tags, an image, a long canonical address), the body last, so the
    // revisions screen opens on the body's difference and the first version against the current one shows them all.
    const demo = (await (await api("/api/admin/articles?per_page=50")).json()) as { items: { image_url?: string | null }[] };
    const profiles = ((await (await api("/api/admin/authors")).json()) as { authors: { id: number }[] }).authors;
    expect(profiles.length, "two author profiles for a byline").toBeGreaterThanOrEqual(2);
    const changes = [
      {
        title: RETITLED,
        title_fr: "Les manuscrits de Chinguetti rentrent à la Bibliothèque nationale après leur restauration",
        excerpt: "مقتطف آخر للمقال بعد تعديله في غرفة الأخبار",
        category_id: "2",
        tags: ["المخطوطات", "التراث"],
        image_url: demo.items.find((i) => i.image_url)?.image_url ?? null,
        canonical_url: LONG_LINK,
        is_featured: true,
      },
      { content: BODY_EDITED },
    ];
    for (const change of changes) {
      const res = await api(`/api/admin/articles/${id}`, { method: "PATCH", body: JSON.stringify(change) });
      expect(res.status, await res.clone().text()).toBe(200);
    }

    screens = [{ path: "/admin", name: "dashboard", group: "dashboard" }];
    for (const { segment } of ALL_CONTENT_TYPES) {
      const list = (await (await api(`/api/admin/${segment}?per_page=5`)).json()) as { items: { id: number }[] };
      const item = segment === "articles" ? id : list.items[0]?.id;
      expect(item, `a ${segment} item to open`).toBeDefined();
      // Two names on the news list's author column, which joins them as the language joins names.
      if (segment === "news") {
        const res = await api(`/api/admin/news/${item}`, { method: "PATCH", body: JSON.stringify({ authors: profiles.slice(0, 2).map((p) => p.id) }) });
        expect(res.status, await res.clone().text()).toBe(200);
      }
      screens.push(
        ...[
          { path: `/admin/${segment}`, name: `${segment} list` },
          { path: `/admin/${segment}/new`, name: `${segment} new` },
          { path: `/admin/${segment}/${item}`, name: `${segment} edit` },
          { path: `/admin/${segment}/${item}/revisions`, name: `${segment} revisions` },
          { path: `/admin/${segment}/${item}/preview`, name: `${segment} preview` },
        ].map((s) => ({ ...s, group: segment })),
      );
    }
    // The article's first version against the current one (title and body), and the restore step that asks first.
    const history = await (await api(`/admin/articles/${id}/revisions`)).text();
    const first = Math.min(...[...history.matchAll(/\?rev=(\d+)/g)].map((m) => Number(m[1])));
    expect(first, "the article's first version").toBeLessThan(Infinity);
    screens.push(
      { path: `/admin/articles/${id}/revisions?rev=${first}`, name: "articles revisions, first against current", group: "compared revisions" },
      { path: `/admin/articles/${id}/revisions?rev=${first}&restore=${first}`, name: "articles revisions, restore step", group: "compared revisions" },
    );
    const author = profiles[0].id;
    for (const p of [
      "calendar",
      "videos",
      "contacts",
      "upload",
      "library",
      "tags",
      "authors",
      "authors/new",
      `authors/${author}`,
      "users",
      "newsletter",
      "analytics",
      "audit",
    ])
      screens.push({ path: `/admin/${p}`, name: p, group: "other" });

    const sources = [
      ...ALL_CONTENT_TYPES.map(({ segment }) => `/api/admin/${segment}?per_page=100`),
      `/api/admin/articles/${id}`,
      "/api/admin/tags",
      "/api/admin/authors",
      "/api/admin/library",
      "/api/admin/videos",
      "/api/admin/contacts",
      "/api/admin/audit",
      "/api/admin/analytics/top",
      "/api/categories",
    ];
    const answers = await Promise.all(sources.map(async (s) => (await api(s)).text()));
    data = [...answers, TITLE, EXCERPT, server.personas.admin.name, server.personas.admin.email].join("\n");
  }, 120_000);

  afterAll(() => stopNewsroomBrowser(browser, server));

  for (const lang of ["ar", "fr"] as const) {
    describe(lang, () => {
      let page: Page;
      let context: BrowserContext;
      beforeAll(async () => {
        ({ page, context } = await signedInPage(browser, server, server.personas.admin, { viewport: PHONE, locale: lang }));
      }, 60_000);
      afterAll(() => context?.close());

      for (const group of GROUPS) {
        it(`${lang}: the ${group} screens fit 375 and 1280 px, have no serious axe finding and no text in the other language`, async () => {
          const findings: string[] = [];
          const part = screens.filter((s) => s.group === group);
          expect(part.length, `screens of ${group}`).toBeGreaterThan(0);
          await keepEvidence(page, `backoffice-walk-${lang}-${group}`, async () => {
            for (const screen of part) {
              await page.setViewportSize(PHONE);
              const res = await page.goto(base + screen.path);
              const where = `${lang} ${screen.name} (${screen.path})`;
              if (res?.status() !== 200) findings.push(`${where}: status ${res?.status()}`);
              await hydrated(page);
              const htmlLang = await page.evaluate(() => document.documentElement.lang);
              if (htmlLang !== lang) findings.push(`${where}: <html lang="${htmlLang}">`);
              const check = async (at: string, axe: boolean) => {
                for (const o of await overflowAt(page)) findings.push(`${where} ${at}: ${o}`);
                if (axe)
                  for (const v of await seriousA11yViolations(page))
                    findings.push(`${where} ${at}: axe ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
                for (const text of await otherLanguage(page, lang, data)) findings.push(`${where} ${at}: ${lang === "fr" ? "Arabic" : "Latin"} text «${text}»`);
              };
              await check("at 375 px", true);
              if (screen.path === "/admin") {
                // The shell's phone menu, open: the account, the language switch and every page's name.
                await page.click('[data-testid="admin-mobile-menu"] summary');
                await page.waitForSelector('[data-testid="admin-mobile-menu"][open]');
                await check("at 375 px, menu open", true);
              }
              // The desktop shell (its side menu is not drawn on a phone): axe once, the rest on every screen.
              await page.setViewportSize(DESKTOP);
              await check("at 1280 px", screen.path === "/admin");
            }
          });
          expect(findings).toEqual([]);
        }, 180_000);
      }
    });
  }
});

/** How far the document is wider than the viewport, with the innermost elements that stick out; [] when it fits. */
async function overflowAt(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    // Two frames: what the page does on a resize lands before measuring.
    for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(() => r(null)));
    const root = document.documentElement;
    const vw = root.clientWidth;
    const overflow = root.scrollWidth - vw;
    if (overflow <= 1) return [];
    // Boxes beyond the viewport's edges, and boxes whose own text spills out of them (an unbreakable word).
    const out = [...document.body.querySelectorAll("*")].filter((el) => {
      const r = el.getBoundingClientRect();
      // A closed <details>' panel keeps its boxes (content-visibility: hidden) but is not on screen.
      if (r.width === 0 || !el.checkVisibility({ visibilityProperty: true })) return false;
      if (r.right > vw + 1 || r.left < -1) return true;
      return getComputedStyle(el).overflowX === "visible" && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0;
    });
    const innermost = out.filter((el) => !out.some((o) => o !== el && el.contains(o))).slice(0, 3);
    const names = innermost.map((el) => {
      const id = el.getAttribute("data-testid");
      return `${el.tagName.toLowerCase()}${id ? `[data-testid="${id}"]` : ""}.${[...el.classList].slice(0, 5).join(".")} "${(el.textContent ?? "").trim().slice(0, 40)}"`;
    });
    return [`${overflow} px wider than the viewport: ${names.join("; ")}`];
  });
}

/**
 * The visible UI text of the other script: Arabic runs on a French screen, Latin words on an Arabic one, minus
 * content (`data`), what is marked as another language, and what an editor typed.
 */
async function otherLanguage(page: Page, lang: "ar" | "fr", data: string): Promise<string[]> {
  const pieces = await page.evaluate((lang) => {
    const found: string[] = [];
    // What an editor typed, and the initials drawn from a name in a decorative avatar.
    const typed = 'input, textarea, [contenteditable], script, style, noscript, template, svg[aria-hidden="true"]';
    const otherLang = (el: Element) => {
      const marked = el.closest("[lang]")?.getAttribute("lang") ?? lang;
      return !marked.startsWith(lang);
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      const text = node.textContent?.trim();
      if (!el || !text || el.closest(typed) || otherLang(el)) continue;
      // What is on screen, and what a screen reader reads of the visually hidden (.sr-only is drawn at 1 px).
      // A select's options are drawn when it opens: they count when the select is on screen.
      const shown = el instanceof HTMLOptionElement || el.closest("option") ? el.closest("select") : el;
      if (!shown?.checkVisibility({ visibilityProperty: true })) continue;
      found.push(text);
    }
    for (const el of document.body.querySelectorAll("[placeholder], [aria-label], [title], img[alt]")) {
      if (otherLang(el) || !el.checkVisibility({ visibilityProperty: true })) continue;
      for (const attr of ["placeholder", "aria-label", "title", "alt"]) {
        const value = el.getAttribute(attr)?.trim();
        if (value) found.push(value);
      }
    }
    return found;
  }, lang);
  const left = new Set<string>();
  for (const text of pieces) {
    if (lang === "fr") {
      // Arabic runs: data when the staff APIs return them whole. Names and tags are joined as French joins them
      // («التراث et المخطوطات»), so a run of several joined by «،» is the UI's punctuation.
      for (const run of text.match(/[\u0600-\u06FF][\u0600-\u06FF\u200c-\u200f\s\-ـ]*/g) ?? []) {
        const piece = run.trim();
        const isData = data.includes(piece);
        // Arabic punctuation alone, between French words or names («Ahmed، Salma»), is the UI's, never the data's.
        const punctuationOnly = /^[،؛؟\s]+$/.test(piece);
        // A UI string counts when it is the whole text: a word of a title («عاجل: …») is the title's.
        if (!piece || (isData && !ARABIC_ONLY.has(text) && !punctuationOnly)) continue;
        left.add(text.length > 80 ? `${run.trim()}» in «${text.slice(0, 80)}…` : text);
      }
    } else {
      const withoutData = text
        .replace(/\S+@\S+\.\S+/g, " ")
        .replace(/(?:https?:\/\/|\/)[^\s]+/g, " ")
        // File names and bare extensions («ملف ‎.vtt»).
        .replace(/[\w-]*\.(?:png|jpe?g|webp|gif|avif|svg|mp3|mp4|m4a|vtt|pdf|csv|xml|json)\b/gi, " ");
      for (const word of withoutData.match(/[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'’]+/g) ?? []) {
        if (LATIN_NAMES.has(word)) continue;
        // Acronyms are written in Latin letters in Arabic too; AM and PM are not: Arabic says ص and م.
        if (/^[A-Z0-9]{2,5}$/.test(word) && word !== "AM" && word !== "PM") continue;
        if (new RegExp(`(^|[^A-Za-zÀ-ÿ])${word}([^A-Za-zÀ-ÿ]|$)`).test(data)) continue;
        left.add(text.length > 80 ? `${word}» in «${text.slice(0, 80)}…` : text);
      }
    }
  }
  return [...left];
}
