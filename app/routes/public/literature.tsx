import { useLocalPath } from "#app/lib/addresses.ts";
import { data, useLocation } from "react-router";
import { Link } from "#app/lib/link.tsx";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/literature";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { sectionMeta, BlockHeading, EmptyState, FilterChips, hrefWith, PageIntro, Pager } from "#app/components/sections/section-ui.tsx";
import { excerpt } from "#domain/format.ts";
import { publicUrl } from "#domain/content-types/index.ts";
import { localized, textProps } from "#domain/localized.ts";
import { bylineLinks } from "#domain/authors.ts";
import { Byline } from "#app/components/content/content-card.tsx";
import { CardImage } from "#app/components/content/responsive-image.tsx";
import { type Language } from "#domain/language.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { pageParam } from "#domain/query.ts";
import { getDb } from "#server/db/client.server.ts";
import { loadLiteraturePage, readLiteraturePage, type LiteratureItem, type LiteratureType } from "#server/content/sections.server.ts";
import { cached } from "#server/content/cache.server.ts";
import { imageDetailsOf } from "#server/content/image-details.server.ts";
import { ImageDetailsProvider } from "#app/components/content/image-details.tsx";
import { translate } from "#server/http/i18n.server.ts";

/** No React in the browser: links and GET forms only (decision 0131). */
export const handle: ReadingHandle = { hydrate: false };

/** Spec §9: literature excerpts are cut at 120 characters. */
const EXCERPT = 120;
const PAGE_SIZE = 12;
/** The spec's type filter, in its order; the slugs are the child categories of `literature`. */
const TYPES: readonly LiteratureType[] = ["poetry", "prose", "folktales", "translations"];

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const page = pageParam(url, "page", 200);
  const lang = languageOfRequest(request);
  const typeParam = url.searchParams.get("type") || null;
  if (typeParam && !(TYPES as readonly string[]).includes(typeParam)) throw data(null, { status: 404 });
  const type = (typeParam as LiteratureType | null) ?? undefined;
  // Even an unreachable database leaves the page with its built-in lists (spec §2, fallback lists); only
  // real reads are cached.
  const result = await loadLiteraturePage(getDb(), { type, page, pageSize: PAGE_SIZE }, (db, options) =>
    cached(`literature:${type ?? ""}:${page}`, ["article", "categories"], () => readLiteraturePage(db, options)),
  );
  const shown = {
    title: translate(lang, "literaturePage.title"),
    intro: translate(lang, "literaturePage.intro"),
    type: type ?? null,
    featured: page === 1 ? result.featured : [],
    items: result.items,
    hasMore: result.hasMore,
    page,
    fallback: result.fallback,
  };
  // The built-in samples are not in the library (and the database may be what failed).
  return { ...shown, images: result.fallback ? {} : await imageDetailsOf(await getDb(), shown) };
}

export const meta: Route.MetaFunction = ({ data, matches, location }) => sectionMeta(matches, data, location);

function LiteratureCard({ item, featured, eager }: { item: LiteratureItem; featured?: boolean; eager?: boolean }) {
  const { t, i18n } = useTranslation();
  const local = useLocalPath();
  const lang = i18n.language as Language;
  const sample = item.id < 0;
  const title = localized(lang, item.title, item.titleFr);
  const verses = lang === "fr" && item.versesFr.length ? item.versesFr : item.verses;
  // A poem shown in Arabic inside a French page keeps its own language and direction.
  const versesLang = verses === item.verses ? "ar" : "fr";
  return (
    <article
      className={`relative flex flex-col overflow-hidden rounded-xl border bg-white shadow-sm ${featured ? "border-desert-500" : "border-sand-200"}`}
      data-testid={featured ? "literature-featured-item" : "literature-item"}
      data-type={item.categorySlug ?? ""}
    >
      {item.imageUrl && !item.isPoetry ? <CardImage url={item.imageUrl} eager={eager} /> : null}
      <div className="flex flex-1 flex-col p-5">
        <p className="mb-1 flex flex-wrap items-center gap-2 text-sm font-bold text-desert-700">
          <span {...textProps(lang, localized(lang, item.categoryName, item.categoryNameFr))}>
            {localized(lang, item.categoryName, item.categoryNameFr) ?? t("common.general")}
          </span>
          {sample && (
            <span className="rounded bg-amber-100 px-2 py-0.5 text-amber-950" data-testid="demo-badge">
              {t("common.demo")}
            </span>
          )}
        </p>
        <h3 className={`font-bold leading-snug ${featured ? "text-xl" : "text-lg"}`} {...textProps(lang, title)}>
          {sample ? (
            title
          ) : (
            <Link
              to={local(publicUrl("article", item.pageSlug, item.id))}
              className="after:absolute after:inset-0 hover:text-desert-700 focus:outline-none focus-visible:underline"
            >
              {title}
            </Link>
          )}
        </h3>
        {item.isPoetry && verses.length > 0 ? (
          <div
            lang={versesLang}
            dir={versesLang === "ar" ? "rtl" : "ltr"}
            className="mt-3 border-s-4 border-sand-300 ps-4 text-lg leading-loose text-ink"
            data-testid="verse-preview"
          >
            {verses.map((line, i) => (
              <p key={i} data-testid="verse-line">
                {line}
              </p>
            ))}
          </div>
        ) : (
          <p className="mt-2 text-ink-soft" data-testid="literature-excerpt" {...textProps(lang, localized(lang, item.excerpt, item.excerptFr))}>
            {excerpt(localized(lang, item.excerpt, item.excerptFr), EXCERPT)}
          </p>
        )}
        <Byline
          author={localized(lang, item.authorName, item.authorNameFr)}
          authors={bylineLinks(lang, item.bylines)}
          date={sample ? null : item.publishDate}
          className="mt-auto pt-3"
        />
      </div>
    </article>
  );
}

export default function LiteraturePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const { type, featured, items, hasMore, page, fallback } = loaderData;
  const chips = [
    { key: "all", label: t("literaturePage.types.all"), to: hrefWith(search, { type: null }), active: !type },
    ...TYPES.map((k) => ({ key: k, label: t(`literaturePage.types.${k}`), to: hrefWith(search, { type: k }), active: type === k })),
  ];
  return (
    <ImageDetailsProvider images={loaderData.images}>
      <PageIntro title={loaderData.title} intro={loaderData.intro} testId="literature-intro">
        <FilterChips label={t("literaturePage.typeFilter")} chips={chips} testId="literature-type" />
      </PageIntro>
      <div className="mx-auto max-w-7xl px-4 py-8">
        {fallback && (
          <p role="status" className="mb-6 rounded-lg border border-amber-400 bg-amber-50 p-4 text-amber-950" data-testid="literature-fallback">
            {t("literaturePage.fallback")}
          </p>
        )}
        {featured.length > 0 && (
          <section aria-labelledby="literature-featured-title" className="mb-10" data-testid="literature-featured">
            <BlockHeading id="literature-featured-title">{t("literaturePage.featured")}</BlockHeading>
            <div className="grid gap-6 md:grid-cols-3">
              {featured.map((item, i) => (
                <LiteratureCard key={item.id} item={item} featured eager={i === 0} />
              ))}
            </div>
          </section>
        )}
        <section aria-labelledby="literature-list-title" data-testid="literature-list">
          <BlockHeading id="literature-list-title">{t("literaturePage.list")}</BlockHeading>
          {items.length > 0 ? (
            <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {items.map((item) => (
                <LiteratureCard key={item.id} item={item} />
              ))}
            </div>
          ) : (
            <EmptyState>{t(type ? "sectionPages.emptyFiltered" : "sectionPages.empty")}</EmptyState>
          )}
          <Pager page={page} hasMore={hasMore} search={search} />
        </section>
      </div>
    </ImageDetailsProvider>
  );
}
