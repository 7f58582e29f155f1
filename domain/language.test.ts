import { describe, expect, it } from "vitest";
import { detectLanguage, directionOf, toSupportedLanguage } from "./language.ts";
import { languageCookie, languageOfRequest } from "#server/http/language.server.ts";

describe("language detection (public-site.md §1)", () => {
  it("defaults to Arabic, right to left", () => {
    expect(detectLanguage({})).toBe("ar");
    expect(directionOf("ar")).toBe("rtl");
    expect(directionOf("fr")).toBe("ltr");
    expect(directionOf("en")).toBe("ltr");
  });

  it("takes the stored choice first, then the browser language, then the page attribute", () => {
    expect(detectLanguage({ stored: "fr", browser: ["en"], htmlLang: "ar" })).toBe("fr");
    expect(detectLanguage({ stored: null, browser: ["en-US", "fr"], htmlLang: "ar" })).toBe("en");
    expect(detectLanguage({ stored: null, browser: ["de", "es"], htmlLang: "fr" })).toBe("fr");
    expect(detectLanguage({ browser: ["fr-FR"] })).toBe("fr");
  });

  it("drops values that look like script injection", () => {
    for (const bad of ['"><script>alert(1)</script>', "fr<img src=x onerror=alert(1)>", "javascript:alert(1)", "fr'", "fr;", "f(r)", "a".repeat(50)]) {
      expect(toSupportedLanguage(bad)).toBeNull();
    }
    expect(detectLanguage({ stored: "<script>fr</script>", browser: ["fr"] })).toBe("fr");
    expect(detectLanguage({ stored: "javascript:alert('fr')" })).toBe("ar");
  });

  it("ignores unsupported languages", () => {
    expect(toSupportedLanguage("de-DE")).toBeNull();
    expect(toSupportedLanguage("ar-MR")).toBe("ar");
    expect(toSupportedLanguage("FR")).toBe("fr");
  });

  it("reads Accept-Language with its quality values", () => {
    // The back-office's language (a reading page's is its address's, below).
    const req = (accept: string) => new Request("http://x/admin", { headers: { "Accept-Language": accept } });
    expect(languageOfRequest(req("de;q=0.9, fr-FR;q=0.95, en;q=0.1"))).toBe("fr");
    expect(languageOfRequest(req("de, en;q=0.5, fr;q=0.6"))).toBe("fr");
    expect(languageOfRequest(req("fr;q=0, en"))).toBe("en");
    expect(languageOfRequest(req("*"))).toBe("ar");
    expect(languageOfRequest(req("de-DE,es"))).toBe("ar");
  });

  it("keeps the choice in a year-long, site-wide, SameSite=Lax cookie, Secure over HTTPS", () => {
    expect(languageCookie("fr")).toBe("i18nextLng=fr; Max-Age=31536000; Path=/; SameSite=Lax");
    expect(languageCookie("ar", true)).toBe("i18nextLng=ar; Max-Age=31536000; Path=/; Secure; SameSite=Lax");
  });

  it("renders a reading page in its address's language alone, whatever the cookie or Accept-Language (decision 0143)", () => {
    const req = (path: string) => new Request(`http://x${path}`, { headers: { Cookie: "i18nextLng=en", "Accept-Language": "en" } });
    expect(languageOfRequest(req("/"))).toBe("ar");
    expect(languageOfRequest(req("/news?page=2"))).toBe("ar");
    expect(languageOfRequest(req("/fr"))).toBe("fr");
    expect(languageOfRequest(req("/fr/articles/x"))).toBe("fr");
    expect(languageOfRequest(req("/france"))).toBe("ar");
    expect(languageOfRequest(req("/api/news"))).toBe("en");
  });

  it("renders the server request in the cookie's language, else the browser's", () => {
    const req = (headers: Record<string, string>) => new Request("http://x/admin/articles", { headers });
    expect(languageOfRequest(req({}))).toBe("ar");
    expect(languageOfRequest(req({ "Accept-Language": "fr-FR,fr;q=0.9" }))).toBe("fr");
    expect(languageOfRequest(req({ Cookie: "a=1; i18nextLng=ar", "Accept-Language": "fr" }))).toBe("ar");
    expect(languageOfRequest(req({ Cookie: "i18nextLng=%3Cscript%3E", "Accept-Language": "fr" }))).toBe("fr");
  });
});
