/**
 * The admin list's table and cards rendered on the server: the category column names the category in the
 * back-office's language (issue 29), as the form's select does, whatever the list's own rows carry.
 */
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "#app/lib/i18n.ts";
import type { Language } from "#domain/language.ts";
import { definitionOf } from "#domain/content-types/index.ts";
import { translationsFor } from "#server/http/i18n.server.ts";
import { ContentCards, ContentTable, type ContentRow } from "./content-table.tsx";

const row: ContentRow = {
  id: 7,
  title: "نتائج الدوري الوطني",
  status: "published",
  summary: "مقتطف الخبر",
  categoryName: "رياضة",
  categoryNameFr: "Sports",
  openMedia: null,
  values: { title: "نتائج الدوري الوطني", category_id: "3", priority: "high", publish_date: "2026-01-05T10:00:00.000Z", status: "published" },
};

function render(lang: Language, rows: ContentRow[] = [row]): string {
  const def = definitionOf("news");
  const actions = { editHref: (r: ContentRow) => `/admin/news/${r.id}`, deleteHref: null, onDelete: () => {} };
  const Page = () => h("div", null, h(ContentTable, { def, rows, actions }), h(ContentCards, { def, rows, actions }));
  const router = createMemoryRouter([{ path: "*", Component: Page }], { initialEntries: ["/admin/news"] });
  return renderToString(h(I18nextProvider, { i18n: createI18n(lang, translationsFor(lang)) }, h(RouterProvider, { router })));
}

/** The text of every element marked data-testid="row-category". */
const categories = (html: string) => [...html.matchAll(/data-testid="row-category"[^>]*>([^<]*)</g)].map((m) => m[1]);

describe("the admin list's category column", () => {
  it("names the category in French in the French back-office, in Arabic in the Arabic one", () => {
    const fr = categories(render("fr"));
    expect(fr.length).toBeGreaterThan(0);
    expect(new Set(fr)).toEqual(new Set(["Sports"]));
    expect(new Set(categories(render("ar")))).toEqual(new Set(["رياضة"]));
  });

  it("falls back to the Arabic name when a category has no French one", () => {
    expect(new Set(categories(render("fr", [{ ...row, categoryNameFr: null }])))).toEqual(new Set(["رياضة"]));
  });
});
