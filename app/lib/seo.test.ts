import { describe, expect, it } from "vitest";
import type { NewsArticle, WithContext } from "schema-dts";
import type { RootLoaderData } from "./root-data.ts";
import { contentMeta, headlineOf, HEADLINE_MAX, type ContentMetaInput } from "./seo.ts";

const root = (lang: RootLoaderData["lang"]) => ({
  id: "root",
  data: {
    lang,
    dir: lang === "ar" ? "rtl" : "ltr",
    translationsJson: JSON.stringify({ nav: { home: lang === "ar" ? "الرئيسية" : "Accueil" } }),
    site: { siteName: "الموقع", siteNameFr: "Le site", publicUrl: "https://example.test", logoUrl: "/brand/logo.svg" },
    year: 2026,
    user: null,
  } as unknown as RootLoaderData,
});

const input = (lang: RootLoaderData["lang"], more: Partial<ContentMetaInput> = {}): ContentMetaInput => ({
  matches: [root(lang)],
  title: "عنوان",
  path: "/news/slug",
  schemaType: "NewsArticle",
  publishedTime: new Date("2026-05-01T10:00:00Z"),
  modifiedTime: new Date("2026-05-02T08:30:00Z"),
  author: [{ name: "Amina", url: "/authors/amina" }],
  images: ["/social/share?r=16x9", "/social/share?r=4x3", "/social/share?r=1x1"],
  breadcrumb: [
    { name: "Actualités", path: "/news" },
    { name: "Titre", path: "/news/slug" },
  ],
  ...more,
});

const find = (meta: ReturnType<typeof contentMeta>, key: string, value: string) => meta.filter((m) => (m as Record<string, unknown>)[key] === value);
const jsonLd = (meta: ReturnType<typeof contentMeta>) => meta.flatMap((m) => ("script:ld+json" in m ? [m["script:ld+json"] as Record<string, unknown>] : []));

describe("headlineOf", () => {
  it("keeps a title that fits", () => {
    expect(headlineOf("  خبر   قصير ")).toBe("خبر قصير");
  });

  it("cuts a long Arabic title after a whole word, within the limit", () => {
    const title = "أعلنت وزارة الثقافة والصناعة التقليدية اليوم عن إطلاق برنامج وطني لترميم المخطوطات القديمة في مدن شنقيط ووادان وتيشيت وولاتة";
    expect(title.length).toBeGreaterThan(HEADLINE_MAX);
    const headline = headlineOf(title);
    expect(headline.length).toBeLessThanOrEqual(HEADLINE_MAX);
    expect(headline.endsWith("…")).toBe(true);
    // What precedes the ellipsis is a run of the title's whole words.
    const kept = headline.slice(0, -1);
    expect(title.startsWith(kept)).toBe(true);
    expect(title[kept.length]).toBe(" ");
  });

  it("never ends inside a letter: marks stay with their letter, surrogate pairs whole", () => {
    const voweled = "بِسْمِ".repeat(40); // one "word" of letters and their marks, longer than the limit
    const cut = headlineOf(voweled);
    expect(cut.length).toBeLessThanOrEqual(HEADLINE_MAX);
    expect(cut.slice(0, -1)).toMatch(/[\u0652\u0650]$/u); // the last letter keeps its mark
    const emoji = "😀".repeat(80);
    const cutEmoji = headlineOf(emoji);
    expect(cutEmoji.length).toBeLessThanOrEqual(HEADLINE_MAX);
    // No lone half of a surrogate pair.
    expect(cutEmoji).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

describe("contentMeta", () => {
  it("an indexable page allows large image previews, a noindex page says noindex only", () => {
    const open = find(contentMeta(input("ar")), "name", "robots");
    expect(open).toEqual([{ name: "robots", content: "max-image-preview:large" }]);
    const kept = find(contentMeta(input("fr", { noindex: true })), "name", "robots");
    expect(kept).toEqual([{ name: "robots", content: "noindex" }]);
  });

  it("names the page's own-language address as canonical, og:url, JSON-LD url and author url", () => {
    const meta = contentMeta(input("fr"));
    expect(find(meta, "rel", "canonical")[0]).toMatchObject({ href: "https://example.test/fr/news/slug" });
    expect(find(meta, "property", "og:url")[0]).toMatchObject({ content: "https://example.test/fr/news/slug" });
    const [article, crumbs] = jsonLd(meta) as [WithContext<NewsArticle>, Record<string, unknown>];
    expect(article).toMatchObject({
      "@type": "NewsArticle",
      url: "https://example.test/fr/news/slug",
      mainEntityOfPage: { "@type": "WebPage", "@id": "https://example.test/fr/news/slug" },
      inLanguage: "fr",
      author: [{ "@type": "Person", name: "Amina", url: "https://example.test/fr/authors/amina" }],
      datePublished: "2026-05-01T10:00:00.000Z",
      dateModified: "2026-05-02T08:30:00.000Z",
      image: ["https://example.test/social/share?r=16x9", "https://example.test/social/share?r=4x3", "https://example.test/social/share?r=1x1"],
      publisher: {
        "@type": "Organization",
        name: "Le site",
        logo: { "@type": "ImageObject", url: "https://example.test/social/logo.png", width: "600", height: "600" },
      },
    });
    expect(crumbs).toEqual({
      "@context": "https://schema.org",
      "@type": "BreadcrumbList",
      itemListElement: [
        { "@type": "ListItem", position: 1, name: "Accueil", item: "https://example.test/fr" },
        { "@type": "ListItem", position: 2, name: "Actualités", item: "https://example.test/fr/news" },
        { "@type": "ListItem", position: 3, name: "Titre", item: "https://example.test/fr/news/slug" },
      ],
    });
  });

  it("Arabic addresses stay at the root", () => {
    const [article] = jsonLd(contentMeta(input("ar")));
    expect(article.url).toBe("https://example.test/news/slug");
  });

  it("an item edited before its scheduled publication was modified when it was published", () => {
    const [article] = jsonLd(contentMeta(input("ar", { modifiedTime: new Date("2026-04-01T00:00:00Z") })));
    expect(article.dateModified).toBe("2026-05-01T10:00:00.000Z");
  });

  it("the JSON-LD types come from schema.org's vocabulary", () => {
    // A property NewsArticle does not have is a type error (tsc checks this file): the check is not by eye.
    // @ts-expect-error -- `headLine` is not a schema.org property
    const wrong: WithContext<NewsArticle> = { "@context": "https://schema.org", "@type": "NewsArticle", headLine: "x" };
    expect(wrong["@type"]).toBe("NewsArticle");
  });
});
