import { useLocalPath } from "#app/lib/addresses.ts";
import { useEffect } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/home";
import { ImageDetailsProvider } from "#app/components/content/image-details.tsx";
import { useToast } from "#app/components/ui/toast.tsx";
import { getDb } from "#server/db/client.server.ts";
import { listLatestShows } from "#server/content/programs.server.ts";
import { listCards } from "#server/content/listings.server.ts";
import { LISTINGS } from "#domain/listings.ts";
import { ArticleTile, ContributeSection, Hero, LiteratureSection, Section, ShowsSection } from "#app/components/sections/home-blocks.tsx";
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
// «الأكثر قراءة» of the last 24 hours and 7 days, in the page's language (issue 45).
import { MostReadBlock } from "#app/components/content/most-read.tsx";
import { mostReadLists } from "#server/analytics/top.server.ts";
import { languageOfRequest } from "#server/http/language.server.ts";

/** Home is HTML with the small reading script, no React in the browser (app/lib/static-page.ts). */
export const handle: ReadingHandle = { hydrate: false, enhance: pushEnhancements };

/** Home limits (public-site.md §9): the culture and literature blocks' 2 (the others: their listings, domain/listings.ts). */
const LIMIT_OF_SECTION = 2;

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

export async function loader({ request }: Route.LoaderArgs) {
  const db = await getDb();
  // The social posts have their own store (server/social/feed.server.ts): it answers from memory, or hides the block.
  const [sections, social, mostRead] = await Promise.all([
    cached("home", ["article", "program", "podcast", "categories"], () => homeSections(db)),
    socialBlockPosts(SOCIAL_LIMITS.home),
    mostReadLists(db, languageOfRequest(request)),
  ]);
  return { ...sections, social, mostRead, images: await imageDetailsOf(db, sections), push: pushOptIn(getConfig()) };
}

async function homeSections(db: Awaited<ReturnType<typeof getDb>>) {
  const [featured, shows, latest, culture, literature] = await Promise.all([
    orHidden("featured", listCards(db, LISTINGS.homeFeatured)),
    orHidden("shows", listLatestShows(db, LISTINGS.shows.limit)),
    orHidden("latest", listCards(db, LISTINGS.homeLatest)),
    orHidden("culture", listCards(db, LISTINGS.section("culture", LIMIT_OF_SECTION))),
    orHidden("literature", listCards(db, LISTINGS.section("literature", LIMIT_OF_SECTION))),
  ]);
  // Literature falls back to two built-in samples, marked as demo content, when there is nothing to show.
  const literatureItems = literature?.length
    ? literature.map((a) => ({ ...a, sample: false }))
    : literatureSamples({}, 2)
        .slice(0, LIMIT_OF_SECTION)
        .map((a) => ({ ...a, sample: true }));
  return { featured, shows, latest, culture, literature: literatureItems };
}

/** Detail loads that fail send the reader here with ?notice=load-failed: say so once, then tidy the URL. */
function LoadFailedNotice() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const toast = useToast();
  const { t } = useTranslation();
  const local = useLocalPath();
  const notice = params.get("notice");
  useEffect(() => {
    if (notice !== "load-failed") return;
    toast({ title: t("errors.loadFailedTitle"), description: t("errors.loadFailed"), variant: "destructive" });
    void navigate(local("/"), { replace: true, preventScrollReset: true });
  }, [notice, toast, t, navigate, local]);
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
  const { t } = useTranslation();
  const { featured, shows, latest, culture, literature, social } = loaderData;
  return (
    <ImageDetailsProvider images={loaderData.images}>
      <LoadFailedNotice />
      <Hero />
      {/* Breaking-news alerts' opt-in (decision 0127): hidden until app/enhance/push.js shows it. */}
      <div className="mx-auto max-w-7xl px-4">
        <PushOptIn optIn={loaderData.push} className="mt-6" />
      </div>

      {featured?.length ? (
        <Section title={t("home.featuredArticles")} testId="home-featured">
          <div className="grid gap-6 md:grid-cols-3">
            {featured.map((a, i) => (
              <ArticleTile key={a.id} a={a} eager={i === 0} />
            ))}
          </div>
        </Section>
      ) : null}

      {shows?.length ? <ShowsSection shows={shows} /> : null}

      {latest?.length || culture?.length ? (
        <div className="mx-auto grid max-w-7xl gap-2 lg:grid-cols-5">
          {latest?.length ? (
            <div className="lg:col-span-3">
              <Section title={t("home.latestArticles")} testId="home-latest">
                <div className="grid gap-4">
                  {latest.map((a) => (
                    <ArticleTile key={a.id} a={a} layout="horizontal" />
                  ))}
                </div>
              </Section>
            </div>
          ) : null}
          {culture?.length ? (
            <div className="lg:col-span-2">
              <Section title={t("home.cultureSection")} testId="home-culture" more={{ to: "/culture", label: t("home.exploreCulture") }}>
                <div className="grid gap-4">
                  {culture.map((a) => (
                    <ArticleTile key={a.id} a={a} />
                  ))}
                </div>
              </Section>
            </div>
          ) : null}
        </div>
      ) : null}

      <MostReadBlock lists={loaderData.mostRead} className="max-w-7xl" />

      {/* Section 5: hidden while loading, on error, with no posts, and when no page token is configured. */}
      {social?.length ? (
        <Section title={t("social.title")} testId="home-social" more={{ to: "/facebook", label: t("social.homeMore") }}>
          <SocialPostGrid posts={social} />
        </Section>
      ) : null}

      <LiteratureSection literature={literature} />
      <ContributeSection />
    </ImageDetailsProvider>
  );
}
