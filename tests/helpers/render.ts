/**
 * Server-renders a component as the back-office renders it: inside a router whose root route holds the language and
 * its translations (what `useRouteLoaderData("root")` reads) and with i18next set to that language.
 */
import { createElement as h, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { I18nextProvider } from "react-i18next";
import { createI18n } from "#app/lib/i18n.ts";
import type { Language } from "#domain/language.ts";
import { translationsFor, translationsJsonFor } from "#server/http/i18n.server.ts";

export function renderUnderRoot(node: ReactNode, lang: Language = "ar"): string {
  const root = { lang, translationsJson: translationsJsonFor(lang) };
  const router = createMemoryRouter([{ id: "root", path: "*", loader: () => root, Component: () => node }], {
    initialEntries: ["/"],
    hydrationData: { loaderData: { root } },
  });
  return renderToString(h(I18nextProvider, { i18n: createI18n(lang, translationsFor(lang)) }, h(RouterProvider, { router })));
}

/** The text a reader sees in rendered HTML, spaces collapsed. */
export const visibleText = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
