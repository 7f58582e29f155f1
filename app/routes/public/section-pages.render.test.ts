/**
 * The section pages rendered on the server from loader data with long texts: excerpts are cut at 120
 * (culture, politics, literature) and 150 (opinion) characters, poems show 4 verse lines when featured and
 * 2 in the list, the fallback samples are marked as demo and have no link. (The demo data's excerpts are
 * all shorter than the cuts, so the browser tests cannot see the cut happen.)
 */
import { createElement as h, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "#app/lib/i18n.ts";
import { excerpt } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { translationsFor } from "#server/http/i18n.server.ts";
import type { LiteratureItem, SectionCard } from "#server/content/sections.server.ts";
import { literatureSamples } from "#server/content/literature-samples.server.ts";
import CulturePage from "./culture.tsx";
import PoliticsPage from "./politics.tsx";
import LiteraturePage from "./literature.tsx";
import OpinionPage from "./opinion.tsx";
import SearchPage from "./search.tsx";
import type { ImageDetails } from "#domain/image-details.ts";

const LONG = "هذا نص طويل جداً يتجاوز حدود المقتطف المسموح بها في صفحات الأقسام، ".repeat(6).trim();
const LONG_FR = "Un texte très long qui dépasse largement la limite de l'extrait autorisée sur les pages de rubrique, ".repeat(5).trim();

function card(id: number, extra: Partial<SectionCard> = {}): SectionCard {
  return {
    id,
    title: `عنوان ${id}`,
    titleFr: `Titre ${id}`,
    excerpt: LONG,
    excerptFr: LONG_FR,
    authorName: "كاتب",
    bylines: [],
    authorNameFr: "Auteur",
    publishDate: new Date("2026-03-0" + ((id % 9) + 1) + "T10:00:00Z"),
    imageUrl: `/uploads/demo/${id}.svg`,
    pageSlug: `item-${id}`,
    categoryName: "الموسيقى",
    categoryNameFr: "Musique",
    categorySlug: "music",
    isFeatured: false,
    viewCount: 100 * id,
    region: null,
    isTrending: false,
    contentType: "article",
    videoUrl: null,
    readTimeMinutes: 3,
    isDemo: false,
    ...extra,
  };
}

/** Renders a route component with its loader data, in a router and with the strings of `lang`. */
function render(Page: ComponentType<never>, loaderData: unknown, { lang = "ar" as Language, url = "/" } = {}): string {
  const router = createMemoryRouter([{ path: "*", Component: () => h(Page, { loaderData, params: {}, matches: [] } as never) }], { initialEntries: [url] });
  const i18n = createI18n(lang, translationsFor(lang));
  return renderToString(h(I18nextProvider, { i18n }, h(RouterProvider, { router })));
}

/** The text of the first <p> after each <h3> of elements marked with `testId`. */
function excerptsIn(html: string, testId: string): string[] {
  const doc = html.split(`data-testid="${testId}"`).slice(1);
  return doc.map((chunk) => {
    const m = /<\/h3><p[^>]*>([\s\S]*?)<\/p>/.exec(chunk);
    return m
      ? m[1]
          .replace(/<[^>]+>/g, "")
          .replace(/&#x27;/g, "'")
          .replace(/&amp;/g, "&")
      : "";
  });
}

describe("section pages rendered with long texts", () => {
  it("culture cuts excerpts at 120 characters, in Arabic and French", () => {
    const data = {
      title: "t",
      intro: "i",
      chips: [],
      category: null,
      featured: [card(1, { isFeatured: true })],
      grid: { items: [card(2), card(3)], hasMore: false, page: 1 },
    };
    const ar = excerptsIn(render(CulturePage as never, data), "culture-card");
    expect(ar).toHaveLength(3);
    for (const text of ar) expect(text).toBe(excerpt(LONG, 120));
    expect(ar[0].length).toBeLessThanOrEqual(121);
    expect(ar[0].endsWith("…")).toBe(true);
    const fr = excerptsIn(render(CulturePage as never, data, { lang: "fr" }), "culture-card");
    for (const text of fr) expect(text).toBe(excerpt(LONG_FR, 120));
  });

  it("politics cuts at 120 and marks video items with a play control", () => {
    const data = {
      title: "t",
      intro: "i",
      type: null,
      region: null,
      view: "list",
      featured: card(1, { isFeatured: true, contentType: "video", videoUrl: "/v.mp4", region: "mali" }),
      list: { items: [card(2, { region: "uae" }), card(3, { contentType: "video", videoUrl: "/v.mp4" })], hasMore: false, page: 1 },
      timeline: null,
      trending: [],
      regions: [],
    };
    const html = render(PoliticsPage as never, data);
    expect(html.match(/data-testid="play-video"/g)).toHaveLength(2);
    const excerpts = html.match(/<\/h3><p[^>]*>([\s\S]*?)<\/p>/g)!.map((p) => p.replace(/<[^>]+>/g, ""));
    expect(excerpts).toHaveLength(3);
    for (const text of excerpts) expect(text).toBe(excerpt(LONG, 120));
  });

  it("politics timeline: year and month headings in the reader's language, items in order", () => {
    const a = card(1, { publishDate: new Date("2026-03-20T10:00:00Z") });
    const b = card(2, { publishDate: new Date("2026-03-02T10:00:00Z"), contentType: "video", videoUrl: "/v.mp4" });
    const c = card(3, { publishDate: new Date("2025-12-31T10:00:00Z") });
    const timeline = [
      { year: 2026, months: [{ month: 3, items: [a, b] }] },
      { year: 2025, months: [{ month: 12, items: [c] }] },
    ];
    const data = { title: "t", intro: "i", type: null, region: null, view: "timeline", featured: null, list: null, timeline, trending: [], regions: [] };
    const fr = render(PoliticsPage as never, data, { lang: "fr" });
    expect(fr).toContain("mars 2026");
    expect(fr).toContain("décembre 2025");
    expect([...fr.matchAll(/data-testid="timeline-item"[^>]*data-date="([^"]+)"/g)].map((m) => m[1])).toEqual(
      [a, b, c].map((x) => x.publishDate.toISOString()),
    );
    expect(fr.match(/data-testid="play-video"/g)).toHaveLength(1);
    const ar = render(PoliticsPage as never, data, { lang: "ar" });
    expect(ar).toContain("مارس 2026");
  });

  it("opinion cuts at 150", () => {
    const data = {
      title: "t",
      intro: "i",
      disclaimer: null,
      chips: [],
      category: null,
      featured: card(1),
      list: { items: [card(2), card(3)], hasMore: false, page: 1 },
      mostRead: [card(3), card(2), card(1)],
    };
    const texts = excerptsIn(render(OpinionPage as never, data), "opinion-item");
    expect(texts).toHaveLength(3);
    for (const text of texts) {
      expect(text).toBe(excerpt(LONG, 150));
      expect(text.length).toBeLessThanOrEqual(151);
      expect(text.length).toBeGreaterThan(121);
    }
  });

  it("literature cuts prose at 120 and previews verses: 4 featured, 2 listed; samples are demo and unlinked", () => {
    const verses = ["بيت أول", "بيت ثان", "بيت ثالث", "بيت رابع"];
    const poem = (id: number, n: number): LiteratureItem => ({
      ...card(id, { categorySlug: "poetry", categoryName: "الشعر" }),
      isPoetry: true,
      verses: verses.slice(0, n),
      versesFr: [],
    });
    const prose = (id: number): LiteratureItem => ({ ...card(id, { categorySlug: "prose" }), isPoetry: false, verses: [], versesFr: [] });
    const html = render(LiteraturePage as never, {
      title: "t",
      intro: "i",
      type: null,
      featured: [poem(1, 4), prose(2)],
      items: [poem(1, 2), prose(2)],
      hasMore: false,
      page: 1,
      fallback: false,
    });
    const featuredPoem = html.split('data-testid="literature-featured-item"')[1];
    expect(
      featuredPoem
        .split('data-testid="verse-preview"')[1]
        .split("</div>")[0]
        .match(/data-testid="verse-line"/g),
    ).toHaveLength(4);
    const listedPoem = html.split('data-testid="literature-item"')[1];
    expect(
      listedPoem
        .split('data-testid="verse-preview"')[1]
        .split("</div>")[0]
        .match(/data-testid="verse-line"/g),
    ).toHaveLength(2);
    const proseExcerpts = [...html.matchAll(/data-testid="literature-excerpt"[^>]*>([^<]*)</g)].map((m) => m[1]);
    expect(proseExcerpts).toEqual([excerpt(LONG, 120), excerpt(LONG, 120)]);

    const fallback = render(LiteraturePage as never, {
      title: "t",
      intro: "i",
      type: null,
      featured: literatureSamples({ featured: true }, 4),
      items: literatureSamples({}, 2),
      hasMore: false,
      page: 1,
      fallback: true,
    });
    expect(fallback).toContain('data-testid="literature-fallback"');
    expect(fallback.match(/data-testid="demo-badge"/g)!.length).toBe(literatureSamples({ featured: true }, 4).length + literatureSamples({}, 2).length);
    expect(fallback).not.toContain('href="/articles/"');
  });
});

describe("the library's alt text and focal point on the literature and search pages", () => {
  const DETAILS: ImageDetails = {
    kind: "image",
    alt: { ar: "مخطوطة قديمة في شنقيط", fr: "Manuscrit ancien à Chinguetti" },
    caption: { ar: "", fr: "" },
    credit: { ar: "", fr: "" },
    focal: { x: 0.3, y: 0.6 },
    width: 1600,
    height: 900,
  };
  const described = "/uploads/demo/2.svg";
  /** The alt and style attributes of each <img> in the html, in order. */
  const pictures = (html: string) =>
    [...html.matchAll(/<img\s([^>]*?)\/?>/g)].map((m) => ({
      src: /src="([^"]*)"/.exec(m[1])?.[1] ?? "",
      alt: /alt="([^"]*)"/.exec(m[1])?.[1] ?? "",
      style: /style="([^"]*)"/.exec(m[1])?.[1],
    }));

  it.each(["ar", "fr"] as const)("literature's cards (%s)", (lang) => {
    const prose = (id: number): LiteratureItem => ({ ...card(id, { categorySlug: "prose" }), isPoetry: false, verses: [], versesFr: [] });
    const html = render(
      LiteraturePage as never,
      {
        title: "t",
        intro: "i",
        type: null,
        featured: [],
        items: [prose(2), prose(3)],
        hasMore: false,
        page: 1,
        fallback: false,
        images: { [described]: DETAILS },
      },
      { lang },
    );
    const [first, second] = pictures(html);
    expect(first).toMatchObject({ alt: DETAILS.alt[lang], style: "object-position:30% 60%" });
    // A picture the library does not describe stays decorative and centred.
    expect(second).toMatchObject({ alt: "", style: undefined });
  });

  it.each(["ar", "fr"] as const)("search results (%s)", (lang) => {
    const result = (id: number) => ({
      type: "articles",
      id,
      title: `عنوان ${id}`,
      titleFr: `Titre ${id}`,
      excerpt: "نص",
      excerptFr: "Texte",
      snippet: null,
      snippetFr: null,
      imageUrl: `/uploads/demo/${id}.svg`,
      publishDate: new Date("2026-03-01T10:00:00Z"),
      href: `/articles/item-${id}`,
      match: "title",
      closeness: "full",
    });
    const html = render(
      SearchPage as never,
      {
        state: "results",
        query: "عنوان",
        filter: null,
        page: { query: "عنوان", page: 1, results: [result(2), result(3)], hasMore: false, suggestion: null, alternatives: [] },
        images: { [described]: DETAILS },
        title: "t",
      },
      { lang, url: "/search?q=x" },
    );
    const [first, second] = pictures(html);
    expect(first).toMatchObject({ alt: DETAILS.alt[lang], style: "object-position:30% 60%" });
    expect(second).toMatchObject({ alt: "", style: undefined });
  });
});
