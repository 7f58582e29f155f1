import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { I18nextProvider } from "react-i18next";
import type { i18n as I18n } from "i18next";
import { NewsCard, type NewsCardData } from "#app/components/content/news-card.tsx";
import { ImageDetailsProvider } from "#app/components/content/image-details.tsx";
import { createI18n, type Translations } from "#app/lib/i18n.ts";
import type { ImageDetailsMap } from "#domain/image-details.ts";
import type { Language } from "#domain/language.ts";

/** One instance per language: the strings never change at run time. */
const instances = new Map<Language, I18n>();

/**
 * A page of the news listing's cards as HTML, rendered by the same component as the page's own
 * (app/routes/public/news.tsx), for app/enhance/news.js to append: the outer element says which page it is and
 * whether more follow (`data-page`, `data-has-more`).
 */
export function newsCardsHtml(
  lang: Language,
  translations: Translations,
  page: { items: NewsCardData[]; hasMore: boolean; page: number },
  images: ImageDetailsMap,
): string {
  let i18n = instances.get(lang);
  if (!i18n) instances.set(lang, (i18n = createI18n(lang, translations)));
  const cards = renderToString(
    // The cards' links are React Router links: a router to render them, as the page has.
    <MemoryRouter>
      <I18nextProvider i18n={i18n}>
        <ImageDetailsProvider images={images}>
          {page.items.map((item) => (
            <NewsCard key={item.id} item={item} headingLevel={2} />
          ))}
        </ImageDetailsProvider>
      </I18nextProvider>
    </MemoryRouter>,
  );
  return `<div data-page="${page.page}" data-has-more="${page.hasMore}">${cards}</div>`;
}
