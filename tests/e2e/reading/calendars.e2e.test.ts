/**
 * Hijri dates and Arabic-Indic digits (issue 46, decision 0148) on the built server: one started with
 * DATE_CALENDARS=gregorian,hijri and DIGITS=arab shows today's Gregorian and Umm al-Qura dates in the header and the
 * Hijri date beside the publication date of a detail page, in Arabic, French and English, at 375 and 1280 px,
 * marked approximate, in Arabic-Indic digits in Arabic only, without overflow and axe clean; machine-readable dates
 * (dateTime attributes, JSON-LD) stay Latin. The suite's own server (default settings) shows neither.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { localizedPath } from "#domain/addresses.ts";
import { configureFormat, DEFAULT_FORMAT_SETTINGS, formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { DESKTOP, hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { horizontalOverflow, seriousA11yViolations } from "#tests/e2e/support/a11y.ts";
import { browserCookies, startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { sharedServer } from "#tests/e2e/support/workers.ts";

const LANGUAGES: Language[] = ["ar", "fr", "en"];
const LAYOUTS = [
  ["375", PHONE],
  ["1280", DESKTOP],
] as const;
const LATIN = /[0-9]/;
const ARABIC_INDIC = /[٠-٩]/;

/** A news item's path, from the news list the seed fills. */
async function newsPath(base: string): Promise<string> {
  const html = await (await fetch(`${base}/news`)).text();
  const path = /href="(\/news\/[^"/?#]+)"/.exec(html)?.[1];
  expect(path, "the demo has a news item").toBeTruthy();
  return path!;
}

/** What the formatter writes with the test server's settings: the pages are the server's, formatted by the same module. */
function withSettings<T>(fn: () => T): T {
  configureFormat({ digits: "arab", calendars: ["gregorian", "hijri"] });
  try {
    return fn();
  } finally {
    configureFormat(DEFAULT_FORMAT_SETTINGS);
  }
}

async function visibleBox(page: Page, testId: string) {
  return page.$eval(`[data-testid="${testId}"]`, (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, width: document.documentElement.clientWidth, overflow: el.scrollWidth - el.clientWidth };
  });
}

describe.skipIf(!hasChromium)("Hijri dates and Arabic-Indic digits (DATE_CALENDARS=gregorian,hijri, DIGITS=arab)", () => {
  let server: AuthServer<"admin">;
  let browser: Browser;
  let detail = "";

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startAuthServer({
        seed: true,
        personas: { admin: { email: "chief@calendars.test", password: "Passw0rdA", role: "admin" } },
        env: { DATE_CALENDARS: "gregorian,hijri", DIGITS: "arab" },
      }),
      launchBrowser(),
    ]);
    detail = await newsPath(server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const lang of LANGUAGES) {
    for (const [width, viewport] of LAYOUTS) {
      it(`${lang} at ${width} px: today's Gregorian and Hijri dates in the header, the Hijri date on a detail page`, async () => {
        const { context, page, errors } = await newPage(browser, { viewport, locale: lang });
        try {
          await page.goto(server.url + localizedPath(lang, "/"));
          const line = page.getByTestId("date-line");
          await line.waitFor();
          // The day the server counted today, as the Gregorian <time> names it (Latin: machine-readable).
          const today = (await page.getAttribute('[data-testid="date-line-gregorian"]', "datetime")) ?? "";
          expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          const expected = withSettings(() => ({
            gregorian: formatDate(`${today}T12:00:00Z`, lang, "weekdayLong"),
            hijri: formatDate(`${today}T12:00:00Z`, lang, "hijri"),
          }));
          expect(await page.getByTestId("date-line-gregorian").innerText()).toBe(expected.gregorian);
          const hijri = page.getByTestId("date-line-hijri");
          expect(await hijri.innerText()).toContain(expected.hijri);
          // Marked approximate, with the reason on the mark.
          const approx = hijri.locator("abbr");
          expect((await approx.getAttribute("title"))?.length).toBeGreaterThan(20);
          expect(await approx.innerText()).toMatch(lang === "ar" ? /تقريبًا/ : lang === "fr" ? /env\./ : /approx\./);
          const lineText = await line.innerText();
          if (lang === "ar") {
            expect(lineText).toMatch(ARABIC_INDIC);
            expect(lineText).not.toMatch(LATIN);
          } else {
            expect(lineText).not.toMatch(ARABIC_INDIC);
          }
          // The line fits: within the screen, nothing cut, and the page no wider than it.
          const box = await visibleBox(page, "date-line");
          expect(box.left).toBeGreaterThanOrEqual(0);
          expect(box.right).toBeLessThanOrEqual(box.width);
          expect(box.overflow).toBeLessThanOrEqual(0);
          expect(await horizontalOverflow(page)).toBe(0);
          // Every date the home page shows is in the language's digits.
          for (const text of await page.locator("main time").allInnerTexts()) {
            if (lang === "ar") expect(text, text).not.toMatch(LATIN);
            else expect(text, text).not.toMatch(ARABIC_INDIC);
          }
          expect(await seriousA11yViolations(page)).toEqual([]);

          await page.goto(server.url + localizedPath(lang, detail));
          const published = (await page.getAttribute('[data-testid="detail-date"]', "datetime")) ?? "";
          expect(published).toMatch(/^\d{4}-\d{2}-\d{2}T/);
          const shown = withSettings(() => ({ gregorian: formatDate(published, lang), hijri: formatDate(published, lang, "hijri") }));
          expect(await page.getByTestId("detail-date").innerText()).toBe(shown.gregorian);
          const itemHijri = page.getByTestId("hijri-date");
          expect(await itemHijri.innerText()).toContain(shown.hijri);
          expect((await itemHijri.locator("abbr").getAttribute("title"))?.length).toBeGreaterThan(20);
          if (lang === "ar") expect(shown.hijri).toMatch(ARABIC_INDIC);
          // Structured data keeps Latin digits whatever the page shows.
          const ld = await page.$$eval('script[type="application/ld+json"]', (els) => els.map((e) => e.textContent ?? "").join("\n"));
          expect(ld).not.toMatch(ARABIC_INDIC);
          expect(ld).toMatch(/"datePublished":"\d{4}-/);
          expect(await horizontalOverflow(page)).toBe(0);
          expect(await seriousA11yViolations(page)).toEqual([]);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  }

  // The back-office hydrates: the browser's formatter must have adopted the settings before rendering, or React
  // reports a mismatch (a console error) and the counts and dates would change under the reader's eyes.
  for (const lang of ["ar", "fr"] as const) {
    it(`${lang}: the back-office hydrates with the same digits the server wrote`, async () => {
      const { context, page, errors } = await newPage(browser, { viewport: DESKTOP, locale: lang });
      try {
        await context.addCookies([...browserCookies(server.personas.admin, server.url), { name: "i18nextLng", value: lang, url: server.url }]);
        await page.goto(`${server.url}/admin`);
        await hydrated(page);
        const counts = (await page.locator('[data-testid^="count-"] [data-value]').allInnerTexts()).join(" ");
        expect(counts.trim().length).toBeGreaterThan(0);
        await page.goto(`${server.url}/admin/news`);
        await hydrated(page);
        // The cells that hold a date (a month's name): the publication and update columns.
        const month =
          lang === "ar"
            ? /(يناير|فبراير|مارس|أبريل|مايو|يونيو|يوليو|أغسطس|سبتمبر|أكتوبر|نوفمبر|ديسمبر)/
            : /(janv|févr|mars|avr|mai|juin|juil|août|sept|oct|nov|déc)/;
        const cells = await page.locator('[data-testid="content-table"] td').allInnerTexts();
        const dates = cells.filter((c) => month.test(c)).join(" ");
        expect(dates.trim().length, "the list shows dates").toBeGreaterThan(0);
        if (lang === "ar") {
          expect(counts).toMatch(ARABIC_INDIC);
          expect(counts).not.toMatch(LATIN);
          expect(dates).toMatch(ARABIC_INDIC);
          expect(dates).not.toMatch(LATIN);
        } else {
          expect(counts).not.toMatch(ARABIC_INDIC);
          expect(dates).not.toMatch(ARABIC_INDIC);
        }
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});

describe.skipIf(!hasChromium)("the default settings (Gregorian only, Latin digits) are unchanged", () => {
  let browser: Browser;
  let base = "";
  beforeAll(async () => {
    base = sharedServer().baseUrl;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const lang of ["ar", "fr"] as const) {
    it(`${lang}: no date line in the header, no Hijri date on a detail page, Latin digits`, async () => {
      const { context, page } = await newPage(browser, { viewport: PHONE, locale: lang });
      try {
        await page.goto(base + localizedPath(lang, "/"));
        await page.getByTestId("site-header").waitFor();
        expect(await page.getByTestId("date-line").count()).toBe(0);
        await page.goto(base + localizedPath(lang, await newsPath(base)));
        const date = await page.getByTestId("detail-date").innerText();
        expect(date).toMatch(LATIN);
        expect(date).not.toMatch(ARABIC_INDIC);
        expect(await page.getByTestId("hijri-date").count()).toBe(0);
      } finally {
        await context.close();
      }
    });
  }
});
