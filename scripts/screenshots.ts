/**
 * Screenshots of pages as readers see them: `npm run screenshots -- http://localhost:3000 / /news` writes PNGs
 * in Arabic, French and English (LANGS=ar,fr to narrow) at phone (375 px) and desktop (1280 px) widths into
 * tests/e2e/screenshots/, each reading page at its language's address (`/fr/news`), the back-office by the cookie. Without paths: home, /news, the newest article and /contact.
 * Back-office pages: `SIGN_IN_EMAIL=… SIGN_IN_PASSWORD=…` signs in through /auth first (an account made with
 * `npm run admin:create`); the password is read from the environment, never printed.
 */
import fs from "node:fs";
import path from "node:path";
import { launchBrowser, PHONE, DESKTOP } from "#tests/e2e/support/browser.ts";
import { localizedPath } from "#domain/addresses.ts";

const [base = "http://localhost:3000", ...given] = process.argv.slice(2);
const languages = (process.env.LANGS ?? "ar,fr,en").split(",").filter((l): l is "ar" | "fr" | "en" => ["ar", "fr", "en"].includes(l));
const paths = given.length ? given : ["/", "/news", await newestArticle(), "/contact"];

/** The first article the home page links to, as a reader would open it. */
async function newestArticle(): Promise<string> {
  const html = await (await fetch(base + "/")).text();
  return /href="(\/articles\/[^"#?]+)"/.exec(html)?.[1] ?? "/articles/1";
}
const outDir = path.resolve("tests/e2e/screenshots");
fs.mkdirSync(outDir, { recursive: true });
const browser = await launchBrowser();
try {
  for (const lang of languages) {
    for (const [label, viewport] of [
      ["phone", PHONE],
      ["desktop", DESKTOP],
    ] as const) {
      const context = await browser.newContext({ viewport, locale: lang });
      await context.addCookies([{ name: "i18nextLng", value: lang, url: base }]);
      const page = await context.newPage();
      if (process.env.SIGN_IN_EMAIL && process.env.SIGN_IN_PASSWORD) {
        await page.goto(`${base}/auth`, { waitUntil: "networkidle" });
        await page.fill('[data-testid="auth-form"] input[name="email"]', process.env.SIGN_IN_EMAIL);
        await page.fill('[data-testid="auth-form"] input[name="password"]', process.env.SIGN_IN_PASSWORD);
        await Promise.all([
          page.waitForURL((url) => !url.pathname.startsWith("/auth")),
          page.press('[data-testid="auth-form"] input[name="password"]', "Enter"),
        ]);
      }
      for (const p of paths) {
        await page.goto(base + localizedPath(lang, p), { waitUntil: "networkidle" });
        if (process.env.FULL === "1") {
          // Bring lazy images in before a full-page shot.
          await page.evaluate(async () => {
            for (let y = 0; y < document.body.scrollHeight; y += 600) {
              window.scrollTo(0, y);
              await new Promise((r) => setTimeout(r, 50));
            }
            window.scrollTo(0, 0);
          });
          await page.waitForLoadState("networkidle");
        }
        const file = path.join(outDir, `${p === "/" ? "home" : p.replace(/[^a-z0-9]+/gi, "_")}-${lang}-${label}.png`);
        await page.screenshot({ path: file, fullPage: process.env.FULL === "1" });
        console.log(file);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
}
