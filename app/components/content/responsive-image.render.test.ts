/**
 * The reading side's images rendered on the server (decision 0104): a card and a detail page name the
 * resized copies of an uploaded image (WebP <source> and fallback srcset, sizes, intrinsic width and
 * height), the detail page's main image is fetched first and at once, cards below the fold lazily, and a
 * URL without the convention (the demo SVGs) stays a plain <img>.
 */
import { createElement as h, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "#app/lib/i18n.ts";
import { translationsFor } from "#server/http/i18n.server.ts";
import { ContentCard } from "./content-card.tsx";
import { NewsCard } from "./news-card.tsx";
import { DetailLayout } from "./detail-layout.tsx";

const UPLOADED = `/uploads/news/1767000000000-a1b2c3-${encodeURIComponent("غلاف")}.1600x900.jpg`;
const STEM = UPLOADED.replace(/\.jpg$/, "");

function render(node: ReactNode): string {
  const router = createMemoryRouter([{ path: "*", Component: () => node }], { initialEntries: ["/"] });
  const i18n = createI18n("ar", translationsFor("ar"));
  return renderToString(h(I18nextProvider, { i18n }, h(RouterProvider, { router })));
}

/** Attributes of the first `<tag …>` in `html`, decoded the way React encodes them. */
function attributesOf(html: string, tag: string): Record<string, string> {
  const m = new RegExp(`<${tag}\\s([^>]*?)/?>`).exec(html);
  if (!m) return {};
  return Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map(([, k, v]) => [k, v.replace(/&amp;/g, "&")]));
}

describe("images on the reading side", () => {
  it("a card below the fold: WebP and fallback candidates, sizes, intrinsic size, lazy", () => {
    const html = render(h(ContentCard, { href: "/news/x", title: "عنوان", imageUrl: UPLOADED }));
    expect(html).toMatch(/<picture class="contents"><source type="image\/webp"[^>]*\/?><img /);
    const source = attributesOf(html, "source");
    expect(source.srcSet).toBe([320, 640, 960, 1280, 1600].map((w) => `${STEM}.w${w}.webp ${w}w`).join(", "));
    expect(source.sizes).toContain("calc(100vw - 2rem)");
    const img = attributesOf(html, "img");
    expect(img).toMatchObject({ src: UPLOADED, width: "1600", height: "900", loading: "lazy", decoding: "async", alt: "" });
    expect(img.srcSet.split(", ")).toEqual([...[320, 640, 960, 1280].map((w) => `${STEM}.w${w}.jpg ${w}w`), `${UPLOADED} 1600w`]);
    expect(img.sizes).toBe(source.sizes);
    expect(img.fetchPriority).toBeUndefined();
  });

  it("an above-the-fold news card is fetched at once, with priority", () => {
    const item = {
      id: 7,
      title: "خبر",
      titleFr: null,
      excerpt: null,
      excerptFr: null,
      imageUrl: UPLOADED,
      location: null,
      pageSlug: "khabar",
      publishDate: new Date("2026-03-01T10:00:00Z"),
      categoryName: null,
      categoryNameFr: null,
    };
    const img = attributesOf(render(h(NewsCard, { item, eager: true })), "img");
    expect(img).toMatchObject({ fetchPriority: "high", width: "1600", height: "900" });
    expect(img.loading).toBeUndefined();
    expect(img.srcSet).toContain(".w320.jpg 320w");
  });

  it("the detail page's main image (its LCP) is fetched first and never lazily; related cards are small and lazy", () => {
    const html = render(
      h(DetailLayout, {
        title: "عنوان",
        date: new Date("2026-03-01T10:00:00Z"),
        imageUrl: UPLOADED,
        path: "/news/x",
        related: [
          {
            id: 2,
            title: "آخر",
            titleFr: null,
            summary: null,
            summaryFr: null,
            imageUrl: UPLOADED,
            publishDate: new Date("2026-03-01T10:00:00Z"),
            pageSlug: "akhar",
            url: "/news/akhar",
          },
        ],
        relatedTitle: "ذو صلة",
        testId: "news-detail",
        children: h("p", null, "النص"),
      }),
    );
    const [main, related] = html.split('data-testid="related"');
    const img = attributesOf(main, "img");
    expect(img).toMatchObject({ src: UPLOADED, width: "1600", height: "900", fetchPriority: "high" });
    expect(img.loading).toBeUndefined();
    expect(img.sizes).toBe("(min-width: 896px) 864px, calc(100vw - 2rem)");
    expect(attributesOf(main, "source").srcSet).toContain(`${STEM}.w1600.webp 1600w`);
    expect(attributesOf(related, "img")).toMatchObject({ loading: "lazy", sizes: "(min-width: 640px) 160px, 128px" });
  });

  it("a URL without the convention (demo SVG) stays a plain <img> with the slot's size", () => {
    const html = render(h(ContentCard, { href: "/news/x", title: "عنوان", imageUrl: "/uploads/demo/images/news/1.svg" }));
    expect(html).not.toContain("<picture");
    const img = attributesOf(html, "img");
    expect(img).toMatchObject({ src: "/uploads/demo/images/news/1.svg", width: "640", height: "360", loading: "lazy" });
    expect(img.srcSet).toBeUndefined();
    expect(img.sizes).toBeUndefined();
  });
});
