/**
 * Accessibility and layout checks shared by the page tests: axe-core through @axe-core/playwright (it
 * evaluates axe over the DevTools protocol, so the page's CSP is untouched), and horizontal overflow.
 */
import { localizedPath } from "#domain/addresses.ts";
import { AxeBuilder } from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { expect, it } from "vitest";

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[]; html: string }[] };

/** Violations of impact "serious" or "critical" (WCAG 2.1 A/AA rules). */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  // Legacy mode runs axe in the page itself. The default mode also opens a blank page to merge the results
  // of cross-origin frames, which made each check three to four times slower here, and these pages have no
  // cross-origin frames to test. options() replaces what withTags() set, so it comes first.
  const { violations } = await new AxeBuilder({ page })
    .options({ resultTypes: ["violations"] })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .setLegacyMode(true)
    .analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target.map((t) => (Array.isArray(t) ? t.join(" ") : String(t))), html: n.html.slice(0, 200) })),
    }));
}

/** Pixels the page is wider than the viewport (0 when nothing overflows). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Sets the reader's language for the next requests (the cookie the server renders from). */
export async function useLanguage(page: Page, baseUrl: string, lang: "ar" | "fr" | "en") {
  await page.context().addCookies([{ name: "i18nextLng", value: lang, url: baseUrl }]);
}

/** The four layouts every public page is checked in: Arabic and French, phone and desktop. */
export const LAYOUT_CASES = (["ar", "fr"] as const).flatMap((lang) =>
  (
    [
      ["phone", { width: 375, height: 740 }],
      ["desktop", { width: 1280, height: 900 }],
    ] as const
  ).map(([label, viewport]) => ({ lang, label, viewport })),
);

/**
 * One test per layout: each page in turn renders in that language, fits the screen and has no serious
 * axe violation. `check` narrows the axe run (for example to <main>) when the caller wants that.
 */
export function checkPagesInEveryLayout(
  getBrowser: () => Browser,
  base: string,
  pages: readonly string[],
  check: (page: Page) => Promise<AxeViolation[]> = seriousA11yViolations,
) {
  for (const { lang, label, viewport } of LAYOUT_CASES) {
    it(`${lang} on a ${label}: no horizontal overflow, no serious axe violation`, async () => {
      const context = await getBrowser().newContext({ viewport, locale: lang });
      const page = await context.newPage();
      await useLanguage(page, base, lang);
      try {
        for (const path of pages) {
          // A reading page in `lang` is at its address in that language (issue 42); the back-office reads the cookie.
          await page.goto(base + localizedPath(lang, path));
          await page.waitForSelector("html[data-hydrated]", { state: "attached" });
          expect(await page.evaluate(() => document.documentElement.lang), path).toBe(lang);
          expect(await horizontalOverflow(page), `${path} overflow`).toBeLessThanOrEqual(0);
          expect(await check(page), path).toEqual([]);
        }
      } finally {
        await context.close();
      }
    });
  }
}

/**
 * Every violation, whatever its impact, of the WCAG 2.1 A/AA rules and axe's best practices (landmarks, heading
 * order, …): what the full-site walk (reading/walk.ts) holds the public pages to. Legacy mode for the
 * same reason as seriousA11yViolations.
 */
export async function allA11yViolations(page: Page, include?: string): Promise<AxeViolation[]> {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const { violations } = await builder
    .options({ resultTypes: ["violations"] })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .setLegacyMode(true)
    .analyze();
  return violations.map((v) => ({
    id: v.id,
    impact: v.impact ?? null,
    help: v.help,
    nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target.map((t) => (Array.isArray(t) ? t.join(" ") : String(t))), html: n.html.slice(0, 200) })),
  }));
}
