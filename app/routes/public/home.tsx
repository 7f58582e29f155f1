import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/home";
import { ContentCard } from "~/components/content/content-card.tsx";
import { excerpt } from "~/lib/format.ts";
import { localized } from "~/lib/localized.ts";
import type { Language } from "~/lib/language.ts";
import { getDb } from "../../../server/db/client.ts";
import { listFeaturedArticles, listLatestArticles } from "../../../server/content/articles.ts";
import { listPublishedNews } from "../../../server/content/news.ts";

export async function loader(_: Route.LoaderArgs) {
  const db = await getDb();
  const [featured, latest, news] = await Promise.all([listFeaturedArticles(db, 3), listLatestArticles(db, 3), listPublishedNews(db, { limit: 6 })]);
  return { featured, latest, news };
}

function Section({ title, children, testId, more }: { title: string; children: React.ReactNode; testId: string; more?: { to: string; label: string } }) {
  return (
    <section className="mx-auto max-w-7xl px-4 py-8" data-testid={testId}>
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

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { featured, latest, news } = loaderData;
  return (
    <>
      <section className="bg-gradient-to-b from-desert-700 to-desert-600 text-white" data-testid="home-hero">
        <div className="mx-auto max-w-7xl px-4 py-12 sm:py-16">
          <h1 className="max-w-3xl text-3xl font-bold leading-tight sm:text-5xl">{t("home.heroTitle")}</h1>
          <p className="mt-4 max-w-2xl text-lg text-sand-100">{t("home.heroText")}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to="/news" className="rounded-md bg-white px-5 py-3 font-bold text-desert-700 hover:bg-sand-100">
              {t("home.latestNews")}
            </Link>
            <Link to="/culture" className="rounded-md border-2 border-white px-5 py-3 font-bold text-white hover:bg-white/10">
              {t("home.exploreHeritage")}
            </Link>
          </div>
        </div>
      </section>

      {featured.length > 0 && (
        <Section title={t("home.featuredArticles")} testId="home-featured">
          <div className="grid gap-6 md:grid-cols-3">
            {featured.map((a, i) => (
              <ContentCard
                key={a.id}
                href={`/articles/${a.pageSlug}`}
                title={localized(lang, a.title, a.titleFr)}
                excerpt={excerpt(localized(lang, a.excerpt, a.excerptFr), 120)}
                imageUrl={a.imageUrl}
                date={a.publishDate}
                category={localized(lang, a.categoryName, a.categoryNameFr) ?? t("common.general")}
                author={a.authorName}
                eager={i === 0}
                testId="article-card"
              />
            ))}
          </div>
        </Section>
      )}

      {latest.length > 0 && (
        <Section title={t("home.latestArticles")} testId="home-latest">
          <div className="grid gap-6 md:grid-cols-3">
            {latest.map((a) => (
              <ContentCard
                key={a.id}
                href={`/articles/${a.pageSlug}`}
                title={localized(lang, a.title, a.titleFr)}
                excerpt={excerpt(localized(lang, a.excerpt, a.excerptFr), 120)}
                imageUrl={a.imageUrl}
                date={a.publishDate}
                category={localized(lang, a.categoryName, a.categoryNameFr) ?? t("common.general")}
                author={a.authorName}
                testId="article-card"
              />
            ))}
          </div>
        </Section>
      )}

      {news.length > 0 && (
        <Section title={t("home.latestNewsSection")} testId="home-news" more={{ to: "/news", label: t("common.viewAll") }}>
          <div className="grid gap-4 md:grid-cols-2">
            {news.map((n) => (
              <ContentCard
                key={n.id}
                layout="horizontal"
                href={`/news/${n.pageSlug}`}
                title={localized(lang, n.title, n.titleFr)}
                imageUrl={n.imageUrl}
                date={n.publishDate}
                category={localized(lang, n.categoryName, n.categoryNameFr)}
                testId="news-card"
              />
            ))}
          </div>
        </Section>
      )}
    </>
  );
}
