/**
 * What a beacon may say and how the server reads it (issue 45): the source of a view from its utm_source or its
 * referrer, the device class of a User-Agent, page keys, search queries as counted, the beacon's body.
 */
import { describe, expect, it } from "vitest";
import { AUDIENCE_PAGES, audiencePageOf, campaignOf, deviceOf, itemOfPage, normalizeSearchQuery, parseBeacon, SOURCES, sourceOf } from "./audience.ts";

const SITE = "sahara.example";

describe("sourceOf", () => {
  it("lists the sources in the dashboard's order", () => {
    expect(SOURCES).toEqual(["search", "facebook", "whatsapp", "telegram", "x", "newsletter", "push", "other", "direct"]);
  });

  it("reads utm_source first, whatever the referrer", () => {
    const cases: [string, string][] = [
      ["newsletter", "newsletter"],
      ["push", "push"],
      ["whatsapp", "whatsapp"],
      ["wa", "whatsapp"],
      ["telegram", "telegram"],
      ["TG", "telegram"],
      ["facebook", "facebook"],
      ["fb", "facebook"],
      ["x", "x"],
      ["twitter", "x"],
      ["google", "search"],
      ["bing", "search"],
      ["google_news", "search"],
      ["duckduckgo", "search"],
      ["partner-site", "other"],
      ["instagram", "other"],
    ];
    for (const [utmSource, source] of cases) expect(sourceOf({ utmSource, referrer: "https://www.facebook.com/", siteHost: SITE }), utmSource).toBe(source);
  });

  it("reads the referrer's host without utm_source", () => {
    const cases: [string, string][] = [
      ["https://www.google.com/", "search"],
      ["https://www.google.fr/search?q=x", "search"],
      ["https://news.google.com/", "search"],
      ["https://www.bing.com/", "search"],
      ["https://duckduckgo.com/", "search"],
      ["https://search.yahoo.com/", "search"],
      ["android-app://com.google.android.googlequicksearchbox/", "search"],
      ["https://www.facebook.com/", "facebook"],
      ["https://l.facebook.com/l.php?u=x", "facebook"],
      ["https://lm.facebook.com/", "facebook"],
      ["https://m.facebook.com/", "facebook"],
      ["https://fb.com/", "facebook"],
      ["https://www.messenger.com/", "facebook"],
      ["https://wa.me/", "whatsapp"],
      ["https://web.whatsapp.com/", "whatsapp"],
      ["https://t.me/sahara", "telegram"],
      ["https://web.telegram.org/", "telegram"],
      ["https://x.com/", "x"],
      ["https://twitter.com/", "x"],
      ["https://t.co/abc", "x"],
      ["https://www.lemonde.fr/afrique/", "other"],
      ["https://sahara.example/news", "direct"],
      ["https://www.sahara.example/", "direct"],
    ];
    for (const [referrer, source] of cases) expect(sourceOf({ referrer, siteHost: SITE }), referrer).toBe(source);
  });

  it("is direct with neither, or a referrer that is not an address", () => {
    expect(sourceOf({ siteHost: SITE })).toBe("direct");
    expect(sourceOf({ utmSource: "", referrer: "", siteHost: SITE })).toBe("direct");
    expect(sourceOf({ referrer: "not a url", siteHost: SITE })).toBe("direct");
    // Several hosts of the site: PUBLIC_URL's and the one the beacon came to.
    expect(sourceOf({ referrer: "http://127.0.0.1:3000/fr", siteHost: [SITE, "127.0.0.1"] })).toBe("direct");
  });
});

describe("deviceOf", () => {
  it("tells phones, tablets and desktops apart", () => {
    const cases: [string, string][] = [
      ["Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36", "mobile"],
      ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", "mobile"],
      ["Opera/9.80 (J2ME/MIDP; Opera Mini/4.2/28.3590; U; en) Presto/2.8.119 Version/11.10", "mobile"],
      ["Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", "tablet"],
      ["Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36", "tablet"],
      ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:131.0) Gecko/20100101 Firefox/131.0", "desktop"],
      ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15", "desktop"],
      ["", "desktop"],
    ];
    for (const [ua, device] of cases) expect(deviceOf(ua), ua).toBe(device);
    expect(deviceOf(null)).toBe("desktop");
  });
});

describe("page keys", () => {
  it("name every kind of reading page; the account pages and the 404 none", () => {
    expect(audiencePageOf("/")).toBe("home");
    expect(audiencePageOf("/news")).toBe("news");
    expect(audiencePageOf("/programs")).toBe("program");
    expect(audiencePageOf("/media")).toBe("media");
    expect(audiencePageOf("/culture")).toBe("culture");
    expect(audiencePageOf("/videos")).toBe("videos");
    expect(audiencePageOf("/search")).toBe("search");
    expect(audiencePageOf("/archive/2026/03")).toBe("archive");
    expect(audiencePageOf("/tags/الصحراء")).toBe("tag");
    expect(audiencePageOf("/authors/someone")).toBe("author");
    for (const page of ["/privacy", "/terms", "/contact", "/sitemap"]) expect(audiencePageOf(page), page).toBe("static");
    expect(audiencePageOf("/coverage/x/entries/12")).toBe("other");
    expect(audiencePageOf("/newsletter/confirm")).toBe("other");
    for (const page of ["/auth", "/auth/forgot", "/setup", "/debug/facebook", "/admin", "/404"]) expect(audiencePageOf(page), page).toBeNull();
    for (const page of ["/", "/news", "/programs", "/culture", "/search", "/archive/2026", "/tags/x", "/authors/x", "/privacy", "/x/y"])
      expect(AUDIENCE_PAGES, page).toContain(audiencePageOf(page));
    for (const key of ["home", "news", "article", "search", "archive", "tag", "author", "static", "other"]) expect(AUDIENCE_PAGES).toContain(key);
  });

  it("read an item's key back", () => {
    expect(itemOfPage("news:42")).toEqual({ contentType: "news", contentId: 42 });
    expect(itemOfPage("article:7")).toEqual({ contentType: "article", contentId: 7 });
    for (const page of ["home", "news", "news:0", "nothing:4", "news:-1", "news:99999999999", "news:4x"]) expect(itemOfPage(page), page).toBeNull();
  });
});

describe("search queries and campaigns", () => {
  it("count a query trimmed, collapsed, lower-cased and at most 100 characters", () => {
    expect(normalizeSearchQuery("  Nouakchott   Port \n")).toBe("nouakchott port");
    expect(normalizeSearchQuery("الصحراء   الكبرى")).toBe("الصحراء الكبرى");
    expect(normalizeSearchQuery("x".repeat(150))).toHaveLength(100);
    expect(normalizeSearchQuery("   ")).toBe("");
  });

  it("keep a campaign of at most 64 of [A-Za-z0-9_.-], else none", () => {
    expect(campaignOf("send-12")).toBe("send-12");
    expect(campaignOf("alert-3")).toBe("alert-3");
    expect(campaignOf("Spring_2026.a")).toBe("Spring_2026.a");
    expect(campaignOf("a".repeat(64))).toHaveLength(64);
    for (const bad of ["a".repeat(65), "with space", "حملة", "<x>", "", null, undefined]) expect(campaignOf(bad), String(bad)).toBeNull();
  });
});

describe("parseBeacon", () => {
  it("reads an item's beacon as today, and a page's", () => {
    expect(parseBeacon('{"type":"news","id":42}')).toEqual({ page: "news:42" });
    expect(parseBeacon('{"page":"home"}')).toEqual({ page: "home" });
    expect(parseBeacon(JSON.stringify({ type: "article", id: 7, lang: "fr", ref: "https://t.me/x", src: "telegram", camp: "alert-4", extra: true }))).toEqual({
      page: "article:7",
      lang: "fr",
      ref: "https://t.me/x",
      src: "telegram",
      camp: "alert-4",
    });
    expect(parseBeacon(JSON.stringify({ page: "search", lang: "ar", q: "الصحراء", n: 0 }))).toEqual({ page: "search", lang: "ar", q: "الصحراء", n: 0 });
    // A campaign the collector will drop is still a beacon.
    expect(parseBeacon(JSON.stringify({ page: "home", camp: "not one" }))).toEqual({ page: "home", camp: "not one" });
  });

  it("refuses what is not one of these", () => {
    const bad = [
      "",
      "nope",
      "[]",
      "null",
      '{"type":"news"}',
      '{"type":"news","id":0}',
      '{"type":"news","id":1.5}',
      '{"type":"news","id":"4"}',
      '{"type":"media","id":4}',
      '{"type":"nothing","id":4}',
      '{"type":"news","id":4,"page":"home"}',
      '{"page":"nowhere"}',
      '{"page":"news:4"}',
      '{"page":"home","lang":"de"}',
      JSON.stringify({ page: "home", ref: "x".repeat(501) }),
      JSON.stringify({ page: "home", src: "x".repeat(41) }),
      JSON.stringify({ page: "home", camp: "x".repeat(65) }),
      JSON.stringify({ page: "home", ref: 4 }),
      JSON.stringify({ page: "home", q: "x", n: 1 }),
      JSON.stringify({ page: "search", q: "x".repeat(101) }),
      JSON.stringify({ page: "search", q: "x", n: -1 }),
      JSON.stringify({ page: "search", q: "x", n: 1.5 }),
      JSON.stringify({ page: "home", pad: "x".repeat(1100) }),
    ];
    for (const body of bad) expect(parseBeacon(body), body.slice(0, 80)).toBeNull();
  });

  it("counts the limit in bytes, not characters", () => {
    const arabic = JSON.stringify({ page: "home", pad: "ص".repeat(510) });
    expect(arabic.length).toBeLessThan(1024);
    expect(parseBeacon(arabic)).toBeNull();
  });
});
