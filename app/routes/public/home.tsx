import { useEffect, type ReactNode } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/home";
import { ContentCard } from "#app/components/content/content-card.tsx";
import { ImageDetailsProvider } from "#app/components/content/image-details.tsx";
import { publicUrl } from "#domain/content-types/index.ts";
import { useToast } from "#app/components/ui/toast.tsx";
import { excerpt } from "#domain/format.ts";
import { localized } from "#domain/localized.ts";
import { bylineLinks } from "#domain/authors.ts";
import type { Language } from "#domain/language.ts";
import { getDb } from "#server/db/client.server.ts";
import { listFeaturedArticles, listLatestArticles } from "#server/content/articles.server.ts";
import { listLatestShows } from "#server/content/programs.server.ts";
import { listSectionArticles } from "#server/content/sections.server.ts";
import { literatureSamples } from "#server/content/literature-samples.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { cached } from "#server/content/cache.server.ts";
import { imageDetailsOf } from "#server/content/image-details.server.ts";
import { markDegraded } from "#server/http/render-scope.server.ts";
import { socialBlockPosts, SOCIAL_LIMITS } from "#server/social/feed.server.ts";
import { SocialPostGrid } from "#app/components/social/post-card.tsx";
import type { ReadingHandle } from "#app/lib/static-page.ts";
// Breaking-news alerts' opt-in (issue 32, decision 0127).
import { PushOptIn, pushEnhancements } from "#app/components/content/push-opt-in.tsx";
import { pushOptIn } from "#server/push/subscriptions.server.ts";
import { getConfig } from "#server/config.server.ts";

/** Home is HTML with the small reading script, no React in the browser (app/lib/static-page.ts). */
export const handle: ReadingHandle = { hydrate: false, enhance: pushEnhancements };

/** Home limits (public-site.md §9). */
const LIMITS = { featured: 3, shows: 4, latest: 3, culture: 2, literature: 2 } as const;

/** A section whose query fails is hidden (null), not the whole page. */
async function orHidden<T>(what: string, query: Promise<T[]>): Promise<T[] | null> {
  try {
    return await query;
  } catch (error) {
    logger.error({ err: error, what }, "home section failed");
    // Neither the home read nor the page is kept: the next reader tries again (the page cache serves the last good page).
    markDegraded();
    return null;
  }
}

export async function loader(_: Route.LoaderArgs) {
  const db = await getDb();
  // The social posts have their own store (server/social/feed.server.ts): it answers from memory, or hides the block.
  const [sections, social] = await Promise.all([
    cached("home", ["article", "program", "podcast", "categories"], () => homeSections(db)),
    socialBlockPosts(SOCIAL_LIMITS.home),
  ]);
  return { ...sections, social, images: await imageDetailsOf(db, sections), push: pushOptIn(getConfig()) };
}

async function homeSections(db: Awaited<ReturnType<typeof getDb>>) {
  const [featured, shows, latest, culture, literature] = await Promise.all([
    orHidden("featured", listFeaturedArticles(db, LIMITS.featured)),
    orHidden("shows", listLatestShows(db, LIMITS.shows)),
    orHidden("latest", listLatestArticles(db, LIMITS.latest)),
    orHidden("culture", listSectionArticles(db, "culture", {}, { limit: LIMITS.culture })),
    orHidden("literature", listSectionArticles(db, "literature", {}, { limit: LIMITS.literature })),
  ]);
  // Literature falls back to two built-in samples, marked as demo content, when there is nothing to show.
  const literatureItems = literature?.length
    ? literature.map((a) => ({ ...a, sample: false }))
    : literatureSamples({}, 2)
        .slice(0, LIMITS.literature)
        .map((a) => ({ ...a, sample: true }));
  return { featured, shows, latest, culture, literature: literatureItems };
}

function Section({ title, children, testId, more }: { title: string; children: ReactNode; testId: string; more?: { to: string; label: string } }) {
  return (
    <section className="mx-auto max-w-7xl px-4 py-8" data-testid={testId} aria-label={title}>
      <div className="mb-5 flex items-end justify-between gap-4">
        <h2 className="border-s-4 border-desert-600 ps-3 text-2xl font-bold">{title}</h2>
        {more && (
          <Link to={more.to} className="text-sm font-bold text-desert-700 hover:underline">
            {more.label}
          </Link>
        )}
      </div>
      {children}
    </section>
  );
}

/** Detail loads that fail send the reader here with ?notice=load-failed: say so once, then tidy the URL. */
function LoadFailedNotice() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const toast = useToast();
  const { t } = useTranslation();
  const notice = params.get("notice");
  useEffect(() => {
    if (notice !== "load-failed") return;
    toast({ title: t("errors.loadFailedTitle"), description: t("errors.loadFailed"), variant: "destructive" });
    void navigate("/", { replace: true, preventScrollReset: true });
  }, [notice, toast, t, navigate]);
  if (notice !== "load-failed") return null;
  // Where home does not hydrate, app/enhance/reading.js says it from here.
  return (
    <div
      hidden
      data-notice="load-failed"
      data-toast-title={t("errors.loadFailedTitle")}
      data-toast-description={t("errors.loadFailed")}
      data-toast-variant="destructive"
    />
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { featured, shows, latest, culture, literature, social } = loaderData;
  const articleCard = (a: NonNullable<typeof featured>[number], eager = false, layout: "vertical" | "horizontal" = "vertical") => (
    <ContentCard
      key={a.id}
      layout={layout}
      href={publicUrl("article", a.pageSlug, a.id)}
      title={localized(lang, a.title, a.titleFr)}
      excerpt={excerpt(localized(lang, a.excerpt, a.excerptFr), 120)}
      imageUrl={a.imageUrl}
      date={a.publishDate}
      category={localized(lang, a.categoryName, a.categoryNameFr) ?? t("common.general")}
      author={a.authorName}
      authors={bylineLinks(lang, a.bylines)}
      eager={eager}
      testId="article-card"
    />
  );
  return (
    <ImageDetailsProvider images={loaderData.images}>
      <LoadFailedNotice />
      <section className="bg-gradient-to-b from-desert-700 to-desert-600 text-white" data-testid="home-hero">
        <div className="mx-auto max-w-7xl px-4 py-12 sm:py-16">
          <h1 className="max-w-3xl text-3xl font-bold leading-tight sm:text-5xl">{t("home.heroTitle")}</h1>
          <p className="mt-4 max-w-2xl text-lg text-sand-100">{t("home.heroText")}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to="/news" className="rounded-md bg-white px-5 py-3 font-bold text-desert-700 hover:bg-sand-100" data-testid="hero-news">
              {t("home.latestNews")}
            </Link>
            <Link to="/culture" className="rounded-md border-2 border-white px-5 py-3 font-bold text-white hover:bg-white/10" data-testid="hero-culture">
              {t("home.exploreHeritage")}
            </Link>
          </div>
        </div>
      </section>
      {/* Breaking-news alerts' opt-in (decision 0127): hidden until app/enhance/push.js shows it. */}
      <div className="mx-auto max-w-7xl px-4">
        <PushOptIn optIn={loaderData.push} className="mt-6" />
      </div>

      {featured?.length ? (
        <Section title={t("home.featuredArticles")} testId="home-featured">
          <div className="grid gap-6 md:grid-cols-3">{featured.map((a, i) => articleCard(a, i === 0))}</div>
        </Section>
      ) : null}

      {shows?.length ? (
        <Section title={t("home.featuredShows")} testId="home-shows" more={{ to: "/programs", label: t("common.viewAll") }}>
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {shows.map((s) => (
              <ContentCard
                key={`${s.kind}-${s.id}`}
                href={publicUrl(s.kind, s.pageSlug, s.id)}
                title={localized(lang, s.title, s.titleFr)}
                excerpt={excerpt(s.description, 100)}
                imageUrl={s.imageUrl}
                date={s.publishDate}
                category={s.kind === "program" ? t(`programTypes.${s.programType}`) : t("home.podcast")}
                testId="show-card"
              />
            ))}
          </div>
        </Section>
      ) : null}

      {latest?.length || culture?.length ? (
        <div className="mx-auto grid max-w-7xl gap-2 lg:grid-cols-5">
          {latest?.length ? (
            <div className="lg:col-span-3">
              <Section title={t("home.latestArticles")} testId="home-latest">
                <div className="grid gap-4">{latest.map((a) => articleCard(a, false, "horizontal"))}</div>
              </Section>
            </div>
          ) : null}
          {culture?.length ? (
            <div className="lg:col-span-2">
              <Section title={t("home.cultureSection")} testId="home-culture" more={{ to: "/culture", label: t("home.exploreCulture") }}>
                <div className="grid gap-4">{culture.map((a) => articleCard(a))}</div>
              </Section>
            </div>
          ) : null}
        </div>
      ) : null}

      {/* Section 5: hidden while loading, on error, with no posts, and when no page token is configured. */}
      {social?.length ? (
        <Section title={t("social.title")} testId="home-social" more={{ to: "/facebook", label: t("social.homeMore") }}>
          <SocialPostGrid posts={social} />
        </Section>
      ) : null}

      <Section title={t("home.literatureSection")} testId="home-literature" more={{ to: "/literature", label: t("home.exploreLiterature") }}>
        <div className="grid gap-6 md:grid-cols-2">
          {literature.map((a) => (
            <div key={a.id} className="relative">
              <ContentCard
                href={a.sample ? "/literature" : publicUrl("article", a.pageSlug, a.id)}
                title={localized(lang, a.title, a.titleFr)}
                excerpt={excerpt(localized(lang, a.excerpt, a.excerptFr), 120)}
                imageUrl={a.imageUrl}
                date={a.sample ? null : a.publishDate}
                category={localized(lang, a.categoryName, a.categoryNameFr)}
                author={localized(lang, a.authorName, a.authorNameFr)}
                authors={bylineLinks(lang, a.bylines)}
                testId={a.sample ? "literature-sample" : "literature-card"}
              />
              {a.sample && <span className="absolute end-3 top-3 rounded bg-amber-100 px-2 py-0.5 text-xs font-bold text-amber-900">{t("common.demo")}</span>}
            </div>
          ))}
        </div>
      </Section>

      <section className="mx-auto max-w-7xl px-4 py-8" data-testid="home-contribute">
        <div className="grid gap-6 md:grid-cols-2">
          <div className="rounded-2xl bg-palm-700 p-8 text-white">
            <h2 className="text-2xl font-bold">{t("home.contributeTitle")}</h2>
            <p className="mt-3 text-sand-100">{t("home.contributeText")}</p>
            <div className="mt-6 flex flex-wrap gap-3">
              <Link to="/contact" className="rounded-md bg-white px-5 py-2.5 font-bold text-palm-800 hover:bg-sand-100">
                {t("home.contactUs")}
              </Link>
              <Link to="/admin" className="rounded-md border-2 border-white px-5 py-2.5 font-bold hover:bg-white/10">
                {t("home.adminPanel")}
              </Link>
            </div>
          </div>
          <div className="rounded-2xl bg-sand-100 p-8" data-testid="home-join">
            <h2 className="text-2xl font-bold">{t("home.joinTitle")}</h2>
            <p className="mt-3 text-ink-soft">{t("home.joinText")}</p>
            <div className="mt-6 flex flex-wrap gap-3">
              <Link to="/contact" className="rounded-md bg-desert-600 px-5 py-2.5 font-bold text-white hover:bg-desert-700">
                {t("home.contactUs")}
              </Link>
              <Link to="/opinion#write-article" className="rounded-md border-2 border-desert-600 px-5 py-2.5 font-bold text-desert-700 hover:bg-white">
                {t("home.shareArticle")}
              </Link>
              <Link to="/literature" className="rounded-md px-3 py-2.5 font-bold text-desert-700 hover:underline">
                {t("home.exploreLiterature")}
              </Link>
              <Link to="/opinion" className="rounded-md px-3 py-2.5 font-bold text-desert-700 hover:underline">
                {t("home.exploreOpinion")}
              </Link>
            </div>
          </div>
        </div>
      </section>
    </ImageDetailsProvider>
  );
}
