/**
 * The home page's blocks (app/routes/public/home.tsx, public-site.md §9): the hero, the article cards, the shows, the
 * literature and the invitation to contribute. Server-rendered HTML; the page does not hydrate.
 */
import type { ReactNode } from "react";
import { Link } from "#app/lib/link.tsx";
import { useLanguage, useText, useTranslation } from "#app/lib/i18n.ts";
import { ContentCard } from "#app/components/content/content-card.tsx";
import { useLocalPath } from "#app/lib/addresses.ts";
import { publicUrl } from "#domain/content-types/index.ts";
import { excerpt } from "#domain/format.ts";
import { localized } from "#domain/localized.ts";
import { bylineLinks } from "#domain/authors.ts";
import type { Language } from "#domain/language.ts";
import type { ArticleCard } from "#server/content/articles.server.ts";
import type { ShowCard } from "#server/content/programs.server.ts";
import type { SectionCard } from "#server/content/sections.server.ts";

export function Section({ title, children, testId, more }: { title: string; children: ReactNode; testId: string; more?: { to: string; label: string } }) {
  const local = useLocalPath();
  return (
    <section className="mx-auto max-w-7xl px-4 py-8" data-testid={testId} aria-label={title}>
      <div className="mb-5 flex items-end justify-between gap-4">
        <h2 className="border-s-4 border-desert-600 ps-3 text-2xl font-bold">{title}</h2>
        {more && (
          <Link to={local(more.to)} className="text-sm font-bold text-desert-700 hover:underline">
            {more.label}
          </Link>
        )}
      </div>
      {children}
    </section>
  );
}

export function Hero() {
  const { t } = useTranslation();
  const local = useLocalPath();
  return (
    <section className="bg-gradient-to-b from-desert-700 to-desert-600 text-white" data-testid="home-hero">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:py-16">
        <h1 className="max-w-3xl text-3xl font-bold leading-tight sm:text-5xl">{t("home.heroTitle")}</h1>
        <p className="mt-4 max-w-2xl text-lg text-sand-100">{t("home.heroText")}</p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Link to={local("/news")} className="rounded-md bg-white px-5 py-3 font-bold text-desert-700 hover:bg-sand-100" data-testid="hero-news">
            {t("home.latestNews")}
          </Link>
          <Link to={local("/culture")} className="rounded-md border-2 border-white px-5 py-3 font-bold text-white hover:bg-white/10" data-testid="hero-culture">
            {t("home.exploreHeritage")}
          </Link>
        </div>
      </div>
    </section>
  );
}

export function ArticleTile({ a, eager = false, layout = "vertical" }: { a: ArticleCard; eager?: boolean; layout?: "vertical" | "horizontal" }) {
  const lang = useLanguage();
  const text = useText();
  return (
    <ContentCard
      layout={layout}
      href={publicUrl("article", a.pageSlug, a.id)}
      title={localized(lang, a.title, a.titleFr)}
      excerpt={excerpt(localized(lang, a.excerpt, a.excerptFr), 120)}
      imageUrl={a.imageUrl}
      date={a.publishDate}
      category={localized(lang, a.categoryName, a.categoryNameFr) ?? text("common.general")}
      author={a.authorName}
      authors={bylineLinks(lang, a.bylines)}
      eager={eager}
      testId="article-card"
    />
  );
}

export function ShowsSection({ shows }: { shows: ShowCard[] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  return (
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
  );
}

export type HomeLiterature = SectionCard & { sample: boolean };

export function LiteratureSection({ literature }: { literature: HomeLiterature[] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  return (
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
  );
}

export function ContributeSection() {
  const { t } = useTranslation();
  const local = useLocalPath();
  return (
    <section className="mx-auto max-w-7xl px-4 py-8" data-testid="home-contribute">
      <div className="grid gap-6 md:grid-cols-2">
        <div className="rounded-2xl bg-palm-700 p-8 text-white">
          <h2 className="text-2xl font-bold">{t("home.contributeTitle")}</h2>
          <p className="mt-3 text-sand-100">{t("home.contributeText")}</p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link to={local("/contact")} className="rounded-md bg-white px-5 py-2.5 font-bold text-palm-800 hover:bg-sand-100">
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
            <Link to={local("/contact")} className="rounded-md bg-desert-600 px-5 py-2.5 font-bold text-white hover:bg-desert-700">
              {t("home.contactUs")}
            </Link>
            <Link to={local("/opinion#write-article")} className="rounded-md border-2 border-desert-600 px-5 py-2.5 font-bold text-desert-700 hover:bg-white">
              {t("home.shareArticle")}
            </Link>
            <Link to={local("/literature")} className="rounded-md px-3 py-2.5 font-bold text-desert-700 hover:underline">
              {t("home.exploreLiterature")}
            </Link>
            <Link to={local("/opinion")} className="rounded-md px-3 py-2.5 font-bold text-desert-700 hover:underline">
              {t("home.exploreOpinion")}
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}
