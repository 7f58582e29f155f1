/**
 * The footer's night reading and text size form (decision 0149) as the server renders it: the reader's choice checked,
 * the page to come back to, in the page's language. (<html> carrying the choice: tests/e2e/reading/theme.e2e.test.ts.)
 */
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "#app/lib/i18n.ts";
import type { Language } from "#domain/language.ts";
import type { ReadingPreferences as Choice } from "#domain/reading-preferences.ts";
import { translationsFor, translationsJsonFor } from "#server/http/i18n.server.ts";
import { visibleText } from "#tests/helpers/render.ts";
import { ReadingPreferences } from "./reading-preferences.tsx";

function render(at: string, reading: Choice, lang: Language = "ar") {
  const root = { lang, translationsJson: translationsJsonFor(lang), reading };
  const router = createMemoryRouter([{ id: "root", path: "*", loader: () => root, Component: () => h(ReadingPreferences) }], {
    initialEntries: [at],
    hydrationData: { loaderData: { root } },
  });
  return renderToString(h(I18nextProvider, { i18n: createI18n(lang, translationsFor(lang)) }, h(RouterProvider, { router })));
}

const checked = (html: string, name: string) => new RegExp(`<input[^>]*name="${name}" checked="" value="([a-z]+)"`).exec(html)?.[1];

describe("the reading form", () => {
  it("posts to /preferences with the page to come back to, the reader's choice checked, in the page's language", () => {
    const html = render("/fr/news?page=2", { theme: "dark", textSize: "larger" }, "fr");
    const form = /<form\b[^>]*>/.exec(html)?.[0];
    expect(form).toMatch(/id="reading-preferences"/);
    expect(form).toMatch(/method="post"/);
    expect(form).toMatch(/action="\/preferences"/);
    expect(html).toContain('name="redirectTo" value="/fr/news?page=2"');
    expect(checked(html, "theme")).toBe("dark");
    expect(checked(html, "size")).toBe("larger");
    expect(visibleText(html)).toContain("Thème Automatique Clair Nuit Taille du texte Normale Grande Très grande Appliquer");
    const ar = render("/", { theme: "system", textSize: "normal" });
    expect(checked(ar, "theme")).toBe("system");
    expect(checked(ar, "size")).toBe("normal");
    expect(visibleText(ar)).toContain("المظهر تلقائي فاتح ليلي حجم النص عادي كبير أكبر تطبيق");
  });
});
