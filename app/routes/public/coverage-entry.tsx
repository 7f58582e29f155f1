import { useTranslation } from "#app/lib/i18n.ts";
import type { MetaDescriptor } from "react-router";
import type { Route } from "./+types/coverage-entry";
import { LiveBadge, LiveEntryView } from "#app/components/content/live/live-entry.tsx";
import { useLocalPath } from "#app/lib/addresses.ts";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { absoluteUrl, localUrl, robotsMeta, rootData, siteNameOf } from "#app/lib/seo.ts";
import { translationsOf } from "#app/lib/root-data.ts";
import { excerpt, formatDate } from "#domain/format.ts";
import { entryAnchor, entryText, isLive } from "#domain/live.ts";
import { localized, textProps } from "#domain/localized.ts";
import type { Language } from "#domain/language.ts";
import { getDb } from "#server/db/client.server.ts";
import { loadEntryPage } from "#server/content/live/pages.server.ts";

/** An entry's own page (issue 44): what a reader shares of a live coverage, with a preview of its own. */
export async function loader({ params }: Route.LoaderArgs) {
  return loadEntryPage(await getDb(), params.slug, params.entryId);
}

/** Plain HTML: nothing on it moves (the coverage's page is the live one). */
export const handle: ReadingHandle = { hydrate: false };

/** Characters of the entry's text in its description. */
const DESCRIPTION = 200;

/**
 * Its link previews: the coverage's title and the entry's time as the title, the entry's text as the description,
 * the entry's picture (else the coverage's). The canonical address and its language versions are the root's.
 */
export const meta: Route.MetaFunction = ({ data, matches }) => {
  if (!data) return [];
  const root = rootData(matches);
  const lang: Language = root?.lang ?? "ar";
  const base = root?.site.publicUrl ?? "";
  const siteName = siteNameOf(root);
  const { coverage, entry } = data;
  const strings = (translationsOf(root).live ?? {}) as Record<string, string>;
  const title = (strings.entryTitle ?? "{{title}} — {{time}}")
    .replace("{{title}}", localized(lang, coverage.title, coverage.titleFr))
    .replace("{{time}}", formatDate(entry.at, lang, "dateTime"));
  const description = excerpt(entryText(entry.body), DESCRIPTION);
  const image = entry.image?.url ?? coverage.imageUrl;
  const meta: MetaDescriptor[] = [
    { title: siteName ? `${title} | ${siteName}` : title },
    { name: "description", content: description },
    robotsMeta(),
    { property: "og:site_name", content: siteName },
    { property: "og:type", content: "article" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: localUrl(base, lang, entry.url) },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { property: "article:published_time", content: entry.at },
  ];
  if (entry.edited_at) meta.push({ property: "article:modified_time", content: entry.edited_at });
  if (image) meta.push({ property: "og:image", content: absoluteUrl(base, image) }, { name: "twitter:image", content: absoluteUrl(base, image) });
  return meta;
};

export default function CoverageEntryPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const local = useLocalPath();
  const { coverage, entry } = loaderData;
  const title = localized(lang, coverage.title, coverage.titleFr);
  return (
    <article className="mx-auto max-w-3xl px-4 py-8" data-testid="live-entry-page">
      <p className="mb-2 flex flex-wrap items-center gap-3 text-sm">
        {isLive(coverage.state) ? <LiveBadge /> : <span className="font-bold text-ink-soft">{t("live.ended")}</span>}
      </p>
      <h1 className="text-2xl font-bold leading-tight sm:text-3xl" {...textProps(lang, title)}>
        <a href={`${local(coverage.url)}#${entryAnchor(entry.id)}`} className="hover:underline">
          {title}
        </a>
      </h1>
      <div className="mt-6">
        <LiveEntryView entry={entry} lang={lang} />
      </div>
      <p className="mt-8">
        <a
          href={`${local(coverage.url)}#${entryAnchor(entry.id)}`}
          className="inline-flex rounded-md bg-desert-600 px-5 py-3 font-bold text-white hover:bg-desert-700"
          data-testid="live-entry-back"
        >
          {t("live.backToCoverage")}
        </a>
      </p>
    </article>
  );
}
