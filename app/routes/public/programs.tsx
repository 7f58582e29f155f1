import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/programs";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { ContentCard } from "#app/components/content/content-card.tsx";
import { publicUrl } from "#domain/content-types/index.ts";
import { excerpt } from "#domain/format.ts";
import { localized } from "#domain/localized.ts";
import { type Language } from "#domain/language.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { imageDetailsOf } from "#server/content/image-details.server.ts";
import { ImageDetailsProvider } from "#app/components/content/image-details.tsx";
import { listPublishedPodcasts, listPublishedPrograms } from "#server/content/programs.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { cached } from "#server/content/cache.server.ts";
import { markDegraded } from "#server/http/render-scope.server.ts";
import { robotsMeta } from "#app/lib/seo.ts";

/** No React in the browser: links and GET forms only (decision 0131). */
export const handle: ReadingHandle = { hydrate: false };

/** Each list loads on its own: one failing shows its error message in red, the other still shows. */
async function settle<T>(what: string, query: Promise<T[]>): Promise<{ items: T[]; error: string | null }> {
  try {
    return { items: await query, error: null };
  } catch (error) {
    logger.error({ err: error, what }, "listing failed");
    markDegraded();
    return { items: [], error: (error as Error).message };
  }
}

export async function loader({ request }: Route.LoaderArgs) {
  const db = await getDb();
  const [programs, podcasts] = await Promise.all([
    settle(
      "programs",
      cached("programs:list", ["program"], () => listPublishedPrograms(db)),
    ),
    settle(
      "podcasts",
      cached("podcasts:list", ["podcast"], () => listPublishedPodcasts(db)),
    ),
  ]);
  const lang = languageOfRequest(request);
  const result = {
    programs,
    podcasts,
    title: translate(lang, "programsPage.title"),
    intro: translate(lang, "programsPage.intro"),
  };
  return { ...result, images: await imageDetailsOf(db, result) };
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: data?.title }, { name: "description", content: data?.intro }, robotsMeta()];

export default function ProgramsPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { programs, podcasts } = loaderData;
  return (
    <ImageDetailsProvider images={loaderData.images}>
      <div className="mx-auto max-w-7xl px-4 py-8">
        <header className="mb-8">
          <h1 className="text-3xl font-bold">{t("programsPage.title")}</h1>
          <p className="mt-2 text-ink-soft">{t("programsPage.intro")}</p>
        </header>

        <section aria-labelledby="programs-heading" className="mb-12" data-testid="programs-section">
          <h2 id="programs-heading" className="mb-5 border-s-4 border-desert-600 ps-3 text-2xl font-bold">
            {t("programsPage.programs")}
          </h2>
          {programs.error ? (
            <p className="text-red-700" role="alert">
              {t("programsPage.loadError", { message: programs.error })}
            </p>
          ) : programs.items.length === 0 ? (
            <p className="text-ink-soft" data-testid="programs-empty">
              {t("programsPage.noPrograms")}
            </p>
          ) : (
            <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              {programs.items.map((p, i) => (
                <ContentCard
                  key={p.id}
                  href={publicUrl("program", p.pageSlug, p.id)}
                  title={localized(lang, p.title, p.titleFr)}
                  excerpt={excerpt(p.description, 100)}
                  imageUrl={p.imageUrl}
                  date={p.publishDate}
                  category={[t(`programTypes.${p.programType}`), p.episodeNumber ? t("detail.episode", { n: p.episodeNumber }) : null]
                    .filter(Boolean)
                    .join(" · ")}
                  eager={i < 4}
                  testId="program-card"
                />
              ))}
            </div>
          )}
        </section>

        <section aria-labelledby="podcasts-heading" data-testid="podcasts-section">
          <h2 id="podcasts-heading" className="mb-5 border-s-4 border-palm-600 ps-3 text-2xl font-bold">
            {t("programsPage.podcasts")}
          </h2>
          {podcasts.error ? (
            <p className="text-red-700" role="alert">
              {t("programsPage.loadError", { message: podcasts.error })}
            </p>
          ) : podcasts.items.length === 0 ? (
            <p className="text-ink-soft" data-testid="podcasts-empty">
              {t("programsPage.noPodcasts")}
            </p>
          ) : (
            <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              {podcasts.items.map((p) => (
                <ContentCard
                  key={p.id}
                  href={publicUrl("podcast", p.pageSlug, p.id)}
                  title={localized(lang, p.title, p.titleFr)}
                  excerpt={excerpt(p.description, 100)}
                  imageUrl={p.imageUrl}
                  date={p.publishDate}
                  category={[p.episodeNumber ? t("detail.episode", { n: p.episodeNumber }) : null, p.duration].filter(Boolean).join(" · ")}
                  testId="podcast-card"
                />
              ))}
            </div>
          )}
        </section>
      </div>
    </ImageDetailsProvider>
  );
}
