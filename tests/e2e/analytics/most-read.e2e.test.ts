/**
 * «الأكثر قراءة» on the built server (issue 45): the home page and a detail page show the last 24 hours' and the last
 * 7 days' most-read items of their language, rendered by the server (in the HTML, no script), published items only,
 * an item without French text left out of the French lists, nothing on the English pages (no item has an English
 * title yet); in Chromium at 375 and 1280 px it fits and axe finds nothing in it. The figures are rollup rows
 * written into the data folder before the server starts, as the collector's flush writes them.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { localizedPath } from "#domain/addresses.ts";
import type { Language } from "#domain/language.ts";
import { openDatabase } from "#server/db/client.server.ts";
import { articles, audienceDaily, audienceHourly, news } from "#server/db/schema.server.ts";
import { GRAINS } from "#server/analytics/grains.server.ts";
import { E2E_SECRET } from "#tests/e2e/auth/support.ts";
import { allA11yViolations, horizontalOverflow } from "#tests/e2e/support/a11y.ts";
import { DESKTOP, hasChromium, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { newDataDir, startServer, type RunningServer } from "#tests/e2e/support/server.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const ITEMS = {
  today: { table: "news", title: "خبر يقرؤه الجميع اليوم", titleFr: null, slug: "most-read-today" },
  bilingual: { table: "news", title: "خبر الساعة في نواكشوط", titleFr: "L’actualité de l’heure à Nouakchott", slug: "most-read-bilingual" },
  week: { table: "article", title: "مقال الأسبوع الأكثر قراءة", titleFr: "L’article le plus lu de la semaine", slug: "most-read-week" },
  draft: { table: "news", title: "مسودة قرأها المحررون كثيرا", titleFr: "Brouillon très lu", slug: "most-read-draft" },
} as const;
type Key = keyof typeof ITEMS;
const pathOf = (key: Key) => `/${ITEMS[key].table === "news" ? "news" : "articles"}/${ITEMS[key].slug}`;

/** The block's list (`day` or `week`) of a page: its items' paths (language prefix left out) and views, in order. */
function listOf(html: string, list: "day" | "week"): { path: string; views: number }[] {
  const start = html.indexOf(`data-testid="most-read-${list}"`);
  if (start < 0) return [];
  const part = html.slice(start, html.indexOf("</ol>", start));
  return [...part.matchAll(/data-testid="most-read-block-item" data-views="(\d+)"[\s\S]*?<a[^>]*href="(?:\/fr|\/en)?([^"]+)"/g)].map((m) => ({
    path: m[2],
    views: Number(m[1]),
  }));
}

describe("«الأكثر قراءة» on the home and detail pages", () => {
  let server: RunningServer;
  let dataDir = "";
  let browser: Browser | undefined;
  const html = async (path: string) => {
    const res = await fetch(server.url + path);
    expect(res.status, path).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    dataDir = newDataDir({ seeded: true });
    const handle = openDatabase({ dataDir });
    try {
      await handle.migrate();
      const now = Date.now();
      const ids = {} as Record<Key, number>;
      for (const [key, item] of Object.entries(ITEMS) as [Key, (typeof ITEMS)[Key]][]) {
        const table = item.table === "news" ? news : articles;
        const [row] = await handle.db
          .insert(table)
          .values({
            title: item.title,
            titleFr: item.titleFr,
            content: "<p>نص المادة</p>",
            pageSlug: item.slug,
            status: key === "draft" ? "draft" : "published",
            publishDate: new Date(now - 5 * DAY),
          } as never)
          .returning({ id: table.id });
        ids[key] = row.id;
      }
      // Counted views as the collector's flush leaves them: the hour's row and the day's; these alone.
      await handle.db.delete(audienceHourly);
      await handle.db.delete(audienceDaily);
      const views: [Key, Language, number, number][] = [
        ["today", "ar", 80, HOUR],
        ["bilingual", "ar", 30, HOUR],
        ["bilingual", "fr", 12, HOUR],
        ["week", "ar", 200, 3 * DAY],
        ["week", "fr", 50, 3 * DAY],
        ["draft", "ar", 500, HOUR],
      ];
      for (const [key, lang, count, ago] of views) {
        const type = ITEMS[key].table;
        const when = new Date(now - ago);
        // The public lists read the items grain: an item's views in one language (server/analytics/grains.server.ts).
        const cols = {
          grain: GRAINS.items,
          page: `${type}:${ids[key]}`,
          contentType: type,
          contentId: ids[key],
          lang,
          source: "",
          device: "",
          campaign: "",
          views: count,
          visitors: 0,
        };
        await handle.db.insert(audienceHourly).values({ hour: new Date(Math.floor(when.getTime() / HOUR) * HOUR), ...cols });
        await handle.db.insert(audienceDaily).values({ day: when.toISOString().slice(0, 10), ...cols });
      }
    } finally {
      await handle.close();
    }
    server = await startServer({ BETTER_AUTH_SECRET: E2E_SECRET, DATA_DIR: dataDir });
    if (hasChromium) browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const expected = {
    ar: {
      day: [pathOf("today"), pathOf("bilingual")],
      week: [pathOf("week"), pathOf("today"), pathOf("bilingual")],
      heading: ["الأكثر قراءة", "آخر 24 ساعة", "آخر 7 أيام"],
    },
    // The French pages' own reads, and only items with a French text.
    fr: {
      day: [pathOf("bilingual")],
      week: [pathOf("week"), pathOf("bilingual")],
      heading: ["Les plus lus", "Dernières 24 heures", "7 derniers jours"],
    },
  } as const;

  for (const lang of ["ar", "fr"] as const) {
    it(`shows the last 24 hours and the last 7 days on the home page and under an article, in ${lang}`, async () => {
      for (const page of ["/", pathOf("bilingual"), pathOf("week")]) {
        const body = await html(localizedPath(lang, page));
        expect(body, page).toContain('data-testid="most-read-block"');
        for (const words of expected[lang].heading) expect(body, page).toContain(words);
        expect(
          listOf(body, "day").map((i) => i.path),
          page,
        ).toEqual(expected[lang].day);
        expect(
          listOf(body, "week").map((i) => i.path),
          page,
        ).toEqual(expected[lang].week);
        // Links in the page's language; never the draft, however read.
        expect(body, page).toContain(`href="${localizedPath(lang, pathOf("bilingual"))}"`);
        expect(body, page).not.toContain(ITEMS.draft.title);
        expect(body, page).not.toContain(ITEMS.draft.titleFr);
      }
      if (lang === "fr") expect(await html("/fr")).toContain(ITEMS.bilingual.titleFr);
    });
  }

  it("shows no block on the English pages, where no item has its own text yet", async () => {
    expect(await html("/en")).not.toContain('data-testid="most-read-block"');
    expect(await html(`/en${pathOf("bilingual")}`)).not.toContain('data-testid="most-read-block"');
  });

  it.skipIf(!hasChromium)("fits a phone and a desktop in Arabic and French, with nothing for axe to find in it", async () => {
    for (const lang of ["ar", "fr"] as const) {
      for (const viewport of [PHONE, DESKTOP]) {
        const { page, context } = await newPage(browser!, { viewport, locale: lang });
        try {
          for (const path of ["/", pathOf("bilingual")]) {
            await page.goto(server.url + localizedPath(lang, path));
            const block = page.getByTestId("most-read-block");
            await block.scrollIntoViewIfNeeded();
            expect(await block.isVisible(), `${lang} ${viewport.width} ${path}`).toBe(true);
            expect(await horizontalOverflow(page), `${lang} ${viewport.width} ${path}`).toBeLessThanOrEqual(0);
            expect(await allA11yViolations(page, '[data-testid="most-read-block"]'), `${lang} ${viewport.width} ${path}`).toEqual([]);
          }
          // Its first entry is a link to the item's page in the page's language.
          await page.getByTestId("most-read-day").getByRole("link").first().click();
          await page.waitForURL(server.url + localizedPath(lang, expected[lang].day[0]));
          expect(await page.getByTestId("detail-title").textContent()).toBe(lang === "fr" ? ITEMS.bilingual.titleFr : ITEMS.today.title);
        } finally {
          await context.close();
        }
      }
    }
  });
});
