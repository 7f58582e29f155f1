import { describe, expect, it } from "vitest";
import { alternatePaths, isAddressedByLanguage, isLocalizable, languageOfAddress, localizedPath, neutralPath, splitAddress } from "./addresses.ts";
import { LANGUAGES } from "./language.ts";

describe("language addresses (issue 42, decision 0143)", () => {
  it("puts French and English under their prefix and leaves Arabic at the root", () => {
    expect(localizedPath("ar", "/news")).toBe("/news");
    expect(localizedPath("fr", "/news")).toBe("/fr/news");
    expect(localizedPath("en", "/articles/some-slug")).toBe("/en/articles/some-slug");
    expect(localizedPath("fr", "/rss.xml")).toBe("/fr/rss.xml");
    expect(localizedPath("en", "/tags/x/feed.xml")).toBe("/en/tags/x/feed.xml");
  });

  it("gives each language's home page one address, without a trailing slash", () => {
    expect(localizedPath("fr", "/")).toBe("/fr");
    expect(localizedPath("en", "/")).toBe("/en");
    expect(localizedPath("ar", "/fr")).toBe("/");
    expect(localizedPath("ar", "/fr/")).toBe("/");
    expect(splitAddress("/fr")).toEqual({ lang: "fr", path: "/" });
    expect(splitAddress("/fr/")).toEqual({ lang: "fr", path: "/" });
  });

  it("keeps the query and the fragment", () => {
    expect(localizedPath("fr", "/search?q=دبي&page=2")).toBe("/fr/search?q=دبي&page=2");
    expect(localizedPath("en", "/news#top")).toBe("/en/news#top");
    expect(localizedPath("fr", "/?utm_source=x")).toBe("/fr?utm_source=x");
    expect(localizedPath("en", "/#main")).toBe("/en#main");
    expect(localizedPath("ar", "/fr?utm_source=x")).toBe("/?utm_source=x");
    expect(localizedPath("en", "/fr/news?page=3")).toBe("/en/news?page=3");
  });

  it("leaves the shared addresses, files and anything not a path untouched", () => {
    for (const path of [
      "/admin",
      "/admin/articles/12",
      "/api/search?q=x",
      "/language",
      "/auth/sign-out",
      "/uploads/a.jpg",
      "/assets/entry-abc.js",
      "/sitemap.xml",
      "/sitemaps/news.xml",
      "/robots.txt",
      "/favicon.svg",
      "/.well-known/security.txt",
    ]) {
      expect(localizedPath("fr", path), path).toBe(path);
      expect(isLocalizable(path), path).toBe(false);
    }
    for (const other of ["https://example.com/news", "//evil.example/news", "mailto:a@b.c", "#top", "news", ""]) {
      expect(localizedPath("fr", other), other).toBe(other);
    }
  });

  it("is idempotent and reads an address of another language again", () => {
    for (const lang of LANGUAGES) {
      for (const path of ["/", "/news", "/fr/news", "/en/videos/v?x=1", "/admin", "/fr", "/en/"]) {
        const once = localizedPath(lang, path);
        expect(localizedPath(lang, once), `${lang} ${path}`).toBe(once);
        expect(languageOfAddress(once.split(/[?#]/, 1)[0]), `${lang} ${path}`).toBe(isLocalizable(neutralPath(path)) ? lang : "ar");
      }
    }
  });

  it("takes only a whole first segment for a prefix: /france, /english, /frx are Arabic pages", () => {
    for (const path of ["/france", "/english", "/frx/news", "/enquete", "/fr-news"]) {
      expect(splitAddress(path), path).toEqual({ lang: null, path });
      expect(languageOfAddress(path), path).toBe("ar");
      expect(localizedPath("fr", path), path).toBe(`/fr${path}`);
    }
    // A prefix further down the path is part of the page's own address.
    expect(splitAddress("/tags/fr")).toEqual({ lang: null, path: "/tags/fr" });
    expect(localizedPath("en", "/tags/fr")).toBe("/en/tags/fr");
  });

  it("tells the language of an address and whether the address alone decides it", () => {
    expect(languageOfAddress("/")).toBe("ar");
    expect(languageOfAddress("/news")).toBe("ar");
    expect(languageOfAddress("/fr")).toBe("fr");
    expect(languageOfAddress("/en/news")).toBe("en");
    expect(isAddressedByLanguage("/")).toBe(true);
    expect(isAddressedByLanguage("/news")).toBe(true);
    expect(isAddressedByLanguage("/fr/news")).toBe(true);
    expect(isAddressedByLanguage("/rss.xml")).toBe(true);
    expect(isAddressedByLanguage("/admin")).toBe(false);
    expect(isAddressedByLanguage("/api/news")).toBe(false);
    expect(isAddressedByLanguage("/language")).toBe(false);
  });

  it("turns any language's address back into the neutral path, and lists a page in every language", () => {
    expect(neutralPath("/fr/news")).toBe("/news");
    expect(neutralPath("/en")).toBe("/");
    expect(neutralPath("/news")).toBe("/news");
    expect(neutralPath("/fr/articles/x")).toBe("/articles/x");
    expect(alternatePaths("/news")).toEqual({ ar: "/news", fr: "/fr/news", en: "/en/news" });
    expect(alternatePaths("/")).toEqual({ ar: "/", fr: "/fr", en: "/en" });
    expect(alternatePaths("/admin")).toEqual({ ar: "/admin", fr: "/admin", en: "/admin" });
  });
});
