/**
 * The media library's details on the reading side (issue 28), rendered on the server as readers get them: a
 * card's and a detail page's <img alt> carry the library's alt text in the reader's language, a cover-cropped
 * picture keeps its focal point in view (object-position), and a detail page's picture has its caption and credit
 * under it in a <figure>, each text in its own direction. A picture the library does not describe stays as it was.
 */
import { createElement as h, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "#app/lib/i18n.ts";
import type { Language } from "#domain/language.ts";
import type { ImageDetails } from "#domain/image-details.ts";
import { translationsFor } from "#server/http/i18n.server.ts";
import { ContentCard } from "./content-card.tsx";
import { DetailLayout } from "./detail-layout.tsx";
import { ImageDetailsProvider } from "./image-details.tsx";

const URL_ = `/uploads/news/1767000000000-a1b2c3-qafila.1600x900.jpg`;
const DETAILS: ImageDetails = {
  kind: "image",
  alt: { ar: "قافلة جمال عند الغروب", fr: "Caravane au coucher du soleil" },
  caption: { ar: "قافلة الملح قرب شنقيط", fr: "" },
  credit: { ar: "تصوير: محمد الأمين", fr: "Photo : Mohamed Lemine" },
  focal: { x: 0.25, y: 0.7 },
  width: 1600,
  height: 900,
};

function render(node: ReactNode, lang: Language = "ar", images: Record<string, ImageDetails> = { [URL_]: DETAILS }): string {
  const router = createMemoryRouter([{ path: "*", Component: () => h(ImageDetailsProvider, { images, children: node }) }], { initialEntries: ["/"] });
  const i18n = createI18n(lang, translationsFor(lang));
  return renderToString(h(I18nextProvider, { i18n }, h(RouterProvider, { router })));
}

function imgAttributes(html: string): Record<string, string> {
  const m = /<img\s([^>]*?)\/?>/.exec(html);
  if (!m) return {};
  return Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map(([, k, v]) => [k, v.replace(/&amp;/g, "&")]));
}

const detail = (imageUrl: string) =>
  h(DetailLayout, {
    title: "عنوان",
    date: new Date("2026-03-01T10:00:00Z"),
    imageUrl,
    path: "/news/x",
    related: [],
    relatedTitle: "ذو صلة",
    testId: "news-detail",
    children: h("p", null, "النص"),
  });

describe("the library's details on the reading side", () => {
  it("a card's picture: the library's alt text in Arabic and French, cropped around the focal point", () => {
    const ar = imgAttributes(render(h(ContentCard, { href: "/news/x", title: "عنوان", imageUrl: URL_ })));
    expect(ar).toMatchObject({ alt: DETAILS.alt.ar, style: "object-position:25% 70%" });
    expect(ar.lang).toBeUndefined();
    const fr = imgAttributes(render(h(ContentCard, { href: "/news/x", title: "Titre", imageUrl: URL_ }), "fr"));
    expect(fr).toMatchObject({ alt: DETAILS.alt.fr, style: "object-position:25% 70%" });
  });

  it("an English page takes the French alt text, and a French page without one the Arabic, marked as Arabic", () => {
    expect(imgAttributes(render(h(ContentCard, { href: "/x", title: "T", imageUrl: URL_ }), "en")).alt).toBe(DETAILS.alt.fr);
    const onlyArabic = { [URL_]: { ...DETAILS, alt: { ar: "قافلة", fr: "" } } };
    expect(imgAttributes(render(h(ContentCard, { href: "/x", title: "T", imageUrl: URL_ }), "fr", onlyArabic))).toMatchObject({ alt: "قافلة", lang: "ar" });
  });

  it("a picture the library does not describe stays decorative and centred, as before", () => {
    const img = imgAttributes(render(h(ContentCard, { href: "/x", title: "عنوان", imageUrl: "/uploads/demo/images/news/1.svg" })));
    expect(img.alt).toBe("");
    expect(img.style).toBeUndefined();
    const centred = { [URL_]: { ...DETAILS, alt: { ar: "", fr: "" }, focal: { x: 0.5, y: 0.5 } } };
    const plain = imgAttributes(render(h(ContentCard, { href: "/x", title: "عنوان", imageUrl: URL_ }), "ar", centred));
    expect(plain.alt).toBe("");
    expect(plain.style).toBeUndefined();
  });

  it("a detail page's picture: a figure with the caption, then the credit on a smaller line, in the reader's language", () => {
    const html = render(detail(URL_));
    expect(html).toMatch(/<figure class="mt-6" data-testid="detail-figure"><picture[^]*<\/picture><figcaption[^>]*>/);
    expect(html).toContain(`<span class="block text-sm leading-relaxed text-ink" data-testid="image-caption">${DETAILS.caption.ar}</span>`);
    expect(html).toContain(`<span class="block text-xs text-ink-soft" data-testid="image-credit">${DETAILS.credit.ar}</span>`);
    expect(imgAttributes(html)).toMatchObject({ alt: DETAILS.alt.ar, fetchPriority: "high", style: "object-position:25% 70%" });
    // French page: the caption has no French, so the Arabic one, in its own language and direction; the credit in French.
    const fr = render(detail(URL_), "fr");
    expect(fr).toContain(`data-testid="image-caption" lang="ar" dir="rtl">${DETAILS.caption.ar}</span>`);
    expect(fr).toContain(`data-testid="image-credit">${DETAILS.credit.fr}</span>`);
  });

  it("a detail picture with neither caption nor credit is no figure", () => {
    const html = render(detail(URL_), "ar", { [URL_]: { ...DETAILS, caption: { ar: "", fr: "" }, credit: { ar: "", fr: "" } } });
    expect(html).not.toContain("<figure");
    expect(html).not.toContain("image-caption");
    expect(imgAttributes(html).alt).toBe(DETAILS.alt.ar);
  });
});
