/**
 * A live coverage's page tells search engines it is a live blog (issue 44): LiveBlogPosting with its coverage's
 * start and end and its latest entries as liveBlogUpdate, keeping what the page said before (publisher, image…).
 */
import { describe, expect, it } from "vitest";
import type { LiveBlogPosting, WithContext } from "schema-dts";
import type { DetailPage, LivePageData } from "#domain/detail-view.ts";
import { LIVE_JSON_LD_UPDATES, type LiveEntry } from "#domain/live.ts";
import type { RootLoaderData } from "./root-data.ts";
import { detailMeta, textOfHtml } from "./detail-meta.ts";

const root = (lang: RootLoaderData["lang"]) => ({
  id: "root",
  data: {
    lang,
    dir: lang === "ar" ? "rtl" : "ltr",
    translationsJson: JSON.stringify({ nav: { home: "الرئيسية" } }),
    site: { siteName: "الموقع", siteNameFr: "Le site", publicUrl: "https://example.test" },
    year: 2026,
    user: null,
    ticker: [],
  } as unknown as RootLoaderData,
});

const entry = (id: number, more: Partial<LiveEntry> = {}): LiveEntry => ({
  id,
  version: id,
  at: new Date(Date.UTC(2026, 10, 20, 20, id)).toISOString(),
  edited_at: null,
  author: "مريم",
  body: `<p>النتيجة رقم ${id} &amp; المزيد</p>`,
  image: null,
  video_id: null,
  embed_url: null,
  key_event: false,
  pinned: false,
  url: `/coverage/elections/entries/${id}`,
  ...more,
});

function page(live?: Partial<LivePageData>): DetailPage {
  return {
    type: "coverage",
    url: "/coverage/elections",
    item: {
      id: 7,
      title: "الانتخابات مباشرة",
      titleFr: "Les élections en direct",
      pageSlug: "elections",
      status: "published",
      publishDate: new Date("2026-11-20T18:00:00Z"),
      updatedAt: new Date("2026-11-20T18:30:00Z"),
      imageUrl: "/uploads/coverage/images/ballot.jpg",
      authorName: null,
      isDemo: false,
      reporterName: "سيدي",
      eventLocation: "نواكشوط",
    },
    summary: "تغطية مباشرة لفرز الأصوات",
    summaryFr: null,
    body: { html: "<p>مقدمة</p>" },
    bodyFr: null,
    related: [],
    ...(live
      ? {
          live: {
            state: { started_at: "2026-11-20T19:00:00.000Z", ended_at: null },
            live: true,
            entries: [],
            pinned: null,
            keyEvents: [],
            cursor: 0,
            olderBefore: null,
            streamPath: "/coverage/elections/stream",
            entriesPath: "/coverage/elections/entries",
            pollMs: 10_000,
            ...live,
          },
        }
      : {}),
  };
}

const jsonLd = (meta: ReturnType<typeof detailMeta>) => meta.flatMap((m) => ("script:ld+json" in m ? [m["script:ld+json"] as Record<string, unknown>] : []));

describe("a live coverage's JSON-LD", () => {
  it("is a LiveBlogPosting with its start, its latest entries at their anchors, and what the page said before", () => {
    const entries = Array.from({ length: 12 }, (_, i) => entry(20 - i));
    const pinned = entry(30, { pinned: true, edited_at: "2026-11-20T23:00:00.000Z" });
    const [blog] = jsonLd(detailMeta(page({ entries, pinned }), [root("fr")])) as unknown as [WithContext<LiveBlogPosting>];
    expect(blog["@type"]).toBe("LiveBlogPosting");
    expect(blog.coverageStartTime).toBe("2026-11-20T19:00:00.000Z");
    expect(blog.coverageEndTime).toBeUndefined();
    const updates = blog.liveBlogUpdate as unknown as Record<string, string>[];
    expect(updates).toHaveLength(LIVE_JSON_LD_UPDATES);
    expect(updates[1]).toEqual({
      "@type": "BlogPosting",
      headline: "النتيجة رقم 20 & المزيد",
      articleBody: "النتيجة رقم 20 & المزيد",
      datePublished: entries[0].at,
      dateModified: entries[0].at,
      url: "https://example.test/fr/coverage/elections#entry-20",
    });
    // The pinned entry is among them by its time; the page keeps its publisher, picture and place, and was modified by its latest edit.
    expect(updates[0].url).toBe("https://example.test/fr/coverage/elections#entry-30");
    expect(blog).toMatchObject({ publisher: { "@type": "Organization", name: "Le site" }, contentLocation: { "@type": "Place", name: "نواكشوط" } });
    expect(blog.image).toBeTruthy();
    expect(blog.dateModified).toBe("2026-11-20T23:00:00.000Z");
  });

  it("says when an ended coverage ended, and a page never live keeps its type's object", () => {
    const [ended] = jsonLd(
      detailMeta(page({ state: { started_at: "2026-11-20T19:00:00.000Z", ended_at: "2026-11-21T02:00:00.000Z" }, live: false }), [root("ar")]),
    );
    expect(ended).toMatchObject({ "@type": "LiveBlogPosting", coverageEndTime: "2026-11-21T02:00:00.000Z" });
    expect(ended.liveBlogUpdate).toBeUndefined();
    const [plain] = jsonLd(detailMeta(page(), [root("ar")]));
    expect(plain["@type"]).toBe("ReportageNewsArticle");
  });

  it("reads an entry's HTML as text", () => {
    expect(textOfHtml("<p>سطر&nbsp;أول</p><p>ثانٍ &lt;مهم&gt; &#1605;&#x62A;</p>")).toBe("سطر أول ثانٍ <مهم> مت");
  });
});
