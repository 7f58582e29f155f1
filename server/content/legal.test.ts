import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkConfig } from "#server/config.server.ts";
import { LEGAL_PAGES, loadLegalPage } from "./legal.server.ts";

const config = checkConfig({ CONTACT_EMAIL: "privacy@sahara.test", CONTACT_PHONE: "+222 11 22 33 44", SITE_NAME: "صحراء <ميديا>" }).config;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "legal-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("the legal pages", () => {
  it.each(LEGAL_PAGES.flatMap((page) => (["ar", "fr", "en"] as const).map((lang) => [page, lang] as const)))(
    "%s in %s is real content with the site's settings",
    async (page, lang) => {
      const doc = await loadLegalPage(page, lang, { config });
      expect(doc).not.toBeNull();
      expect(doc!.lang).toBe(lang);
      expect(doc!.title.length).toBeGreaterThan(3);
      expect(doc!.html).toMatch(/<h1>/);
      expect((doc!.html.match(/<h2>/g) ?? []).length).toBeGreaterThanOrEqual(5);
      expect(doc!.html).toContain("privacy@sahara.test");
      expect(doc!.html).not.toContain("{{");
      // Settings are escaped like everything else.
      if (lang === "ar") expect(doc!.html).toContain("صحراء &lt;ميديا&gt;");
      expect(doc!.html).not.toMatch(/<script|javascript:/i);
    },
  );

  it("covers what the site collects in the privacy policy", async () => {
    const doc = await loadLegalPage("privacy", "en", { config });
    for (const topic of ["Contact messages", "Newsletter", "Newsroom accounts", "Language cookie", "View counter", "How long we keep it", "Your rights"]) {
      expect(doc!.html).toContain(topic);
    }
  });

  it("says in every language what the audience figures count, what they do not, how long each is kept, and that DNT and GPC are honoured", async () => {
    const configured = checkConfig({ ANALYTICS_RAW_DAYS: "21", ANALYTICS_HOURLY_DAYS: "120" }).config;
    const words = {
      ar: [
        "إحصاءات القراءة",
        "ملف تعريف ارتباط",
        "عنوان IP",
        "User-Agent",
        "جهة خارجية",
        "فئة الجهاز",
        "مفتاحاً يومياً",
        "Do Not Track",
        "Global Privacy Control",
      ],
      fr: [
        "Mesure d'audience",
        "sans aucun cookie",
        "aucune adresse IP",
        "User-Agent",
        "avec un tiers",
        "catégorie d'appareil",
        "clé journalière",
        "Do Not Track",
        "Global Privacy Control",
      ],
      en: [
        "Audience figures",
        "without any cookie",
        "no IP address",
        "User-Agent",
        "third party",
        "device class",
        "daily visitor key",
        "Do Not Track",
        "Global Privacy Control",
      ],
    } as const;
    for (const [lang, expected] of Object.entries(words) as [keyof typeof words, readonly string[]][]) {
      const doc = await loadLegalPage("privacy", lang, { config: configured });
      const text = doc!.html.replaceAll("&quot;", '"').replaceAll("&#39;", "'");
      for (const phrase of expected) expect(text, `${lang}: ${phrase}`).toContain(phrase);
      // The configured durations, not the defaults.
      expect(text, lang).toMatch(/\b21\b[^<]*\b120\b/);
      expect(text, lang).not.toContain("{{");
    }
  });

  it("falls back to Arabic when the language's file is missing, and re-reads a changed file", async () => {
    fs.mkdirSync(path.join(tmp, "ar"), { recursive: true });
    const file = path.join(tmp, "ar", "terms.md");
    fs.writeFileSync(file, "# الشروط\n\nنص أول");
    const fr = await loadLegalPage("terms", "fr", { config, folder: tmp });
    expect(fr).toMatchObject({ lang: "ar", title: "الشروط" });
    expect(fr!.html).toContain("نص أول");
    fs.writeFileSync(file, "# الشروط\n\nنص معدل");
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(file, later, later);
    expect((await loadLegalPage("terms", "ar", { config, folder: tmp }))!.html).toContain("نص معدل");
    expect(await loadLegalPage("privacy", "fr", { config, folder: tmp })).toBeNull();
  });
});
