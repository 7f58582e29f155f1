/**
 * The politics and history page's blocks (app/routes/public/politics.tsx): its filters, the lead story and list, the
 * timeline, and the sidebar's trending items and counts per region. The markup is the page's: links and forms the
 * server renders, a video opened by app/enhance/video-openers.js.
 */
import { Link } from "#app/lib/link.tsx";
import { useTranslation } from "#app/lib/i18n.ts";
import { ContentCard } from "#app/components/content/content-card.tsx";
import { PlayBadge, playerStart, videoOpener } from "#app/components/media/video-player.tsx";
import {
  BlockHeading,
  EmptyState,
  FeaturedStory,
  FilterChips,
  hrefWith,
  PageIntro,
  Pager,
  RankedItem,
  SideBox,
  storyOf,
} from "#app/components/sections/section-ui.tsx";
import { publicUrl } from "#domain/content-types/index.ts";
import { formatDate, formatNumber, isoDate, localizeDigits } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { localized } from "#domain/localized.ts";
import { useLocalPath } from "#app/lib/addresses.ts";
import type { Region, RegionCount, SectionCard, TimelineYear } from "#server/content/sections.server.ts";

const EXCERPT = 120;

/** The spec's order of the region filter. */
export const REGION_ORDER: readonly Region[] = ["uae", "morocco", "mauritania", "sahara", "mali"];
export type TypeParam = "articles" | "videos";

/** The page's language, an item's title in it and a region's label. */
function usePoliticsText() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const title = (a: SectionCard) => localized(lang, a.title, a.titleFr);
  const regionLabel = (r: Region | null) => (r ? t(`politicsPage.regions.${r}`) : null);
  const local = useLocalPath();
  return { t, lang, title, regionLabel, local };
}

/** Over a video item's picture: opens the player; without JavaScript it is a link to the article. */
function PlayOverlay({ a }: { a: SectionCard }) {
  const { t, title, local } = usePoliticsText();
  return a.contentType === "video" && a.videoUrl ? (
    <a
      href={local(publicUrl("article", a.pageSlug, a.id))}
      {...videoOpener(playerStart(a.videoUrl), title(a), a.imageUrl)}
      className="absolute inset-0 z-10 block focus-visible:outline-4 focus-visible:outline-offset-[-4px] focus-visible:outline-desert-500"
      aria-label={t("sectionPages.watchVideo", { title: title(a) })}
      data-testid="play-video"
    >
      <PlayBadge />
    </a>
  ) : null;
}

/** The card's label is the kind (a video) and the region rather than the category. */
function useStory() {
  const { t, lang, regionLabel } = usePoliticsText();
  return (a: SectionCard) => ({
    ...storyOf(a, lang, EXCERPT),
    category: [a.contentType === "video" ? t("sectionPages.video") : null, regionLabel(a.region)].filter(Boolean).join(" · ") || null,
  });
}

function PoliticsCard({ a }: { a: SectionCard }) {
  const story = useStory();
  return (
    <div className="relative" data-testid="politics-item" data-type={a.contentType} data-region={a.region ?? ""}>
      <ContentCard {...story(a)} />
      {a.imageUrl && (
        <div className="absolute inset-x-0 top-0 aspect-video overflow-hidden rounded-t-xl">
          <PlayOverlay a={a} />
        </div>
      )}
    </div>
  );
}

/** The heading with the content-type and region filters and the list/timeline switch. */
export function PoliticsIntro({
  title,
  intro,
  type,
  region,
  view,
  search,
}: {
  title: string;
  intro: string;
  type: TypeParam | null;
  region: Region | null;
  view: string;
  search: string;
}) {
  const { t } = useTranslation();
  const typeChips = (["all", "articles", "videos"] as const).map((k) => ({
    key: k,
    label: t(`politicsPage.types.${k}`),
    to: hrefWith(search, { type: k === "all" ? null : k }),
    active: (type ?? "all") === k,
  }));
  const regionChips = [
    { key: "all", label: t("politicsPage.regions.all"), to: hrefWith(search, { region: null }), active: !region },
    ...REGION_ORDER.map((r) => ({ key: r, label: t(`politicsPage.regions.${r}`), to: hrefWith(search, { region: r }), active: region === r })),
  ];
  return (
    <PageIntro title={title} intro={intro} testId="politics-intro">
      <FilterChips label={t("politicsPage.contentType")} chips={typeChips} testId="politics-type" />
      <FilterChips label={t("politicsPage.region")} chips={regionChips} testId="politics-region" />
      <nav
        aria-label={t("politicsPage.viewLabel")}
        className="mt-4 inline-flex overflow-hidden rounded-md border border-sand-300 bg-white"
        data-testid="politics-view"
      >
        {(["list", "timeline"] as const).map((v) => (
          <Link
            key={v}
            to={hrefWith(search, { view: v === "list" ? null : v })}
            preventScrollReset
            aria-current={view === v ? "true" : undefined}
            data-testid={`politics-view-${v}`}
            className={`px-4 py-2 text-sm font-bold ${view === v ? "bg-palm-700 text-white" : "text-ink hover:bg-sand-100"}`}
          >
            {t(`politicsPage.views.${v}`)}
          </Link>
        ))}
      </nav>
    </PageIntro>
  );
}

/** The filtered items by year and month. */
export function PoliticsTimeline({ timeline }: { timeline: TimelineYear[] }) {
  const { t, lang, title, regionLabel, local } = usePoliticsText();
  return (
    <section aria-labelledby="politics-timeline-title" data-testid="politics-timeline">
      <BlockHeading id="politics-timeline-title">{t("politicsPage.views.timeline")}</BlockHeading>
      {timeline.length === 0 ? (
        <EmptyState>{t("sectionPages.emptyFiltered")}</EmptyState>
      ) : (
        timeline.map((y) => (
          <section key={y.year} aria-labelledby={`year-${y.year}`} className="mb-8" data-testid="timeline-year" data-year={y.year}>
            <h3 id={`year-${y.year}`} className="mb-3 text-2xl font-bold text-desert-700">
              {localizeDigits(String(y.year), lang)}
            </h3>
            <ol className="space-y-6 border-s-2 border-sand-300 ps-5">
              {y.months.map((m) => (
                <li key={m.month} data-testid="timeline-month" data-month={m.month}>
                  <h4 className="relative mb-3 font-bold">
                    <span className="absolute -start-[1.72rem] top-2 h-3 w-3 rounded-full bg-desert-600" aria-hidden="true" />
                    {formatDate(new Date(Date.UTC(y.year, m.month - 1, 1)), lang, "month")}
                  </h4>
                  <ol className="space-y-3">
                    {m.items.map((a) => (
                      <li
                        key={a.id}
                        className="relative rounded-lg border border-sand-200 bg-white p-4"
                        data-testid="timeline-item"
                        data-date={isoDate(a.publishDate)}
                        data-type={a.contentType}
                        data-region={a.region ?? ""}
                      >
                        <time dateTime={isoDate(a.publishDate)} className="text-sm text-ink-soft">
                          {formatDate(a.publishDate, lang)}
                        </time>
                        <p className="font-bold leading-snug">
                          <Link to={local(publicUrl("article", a.pageSlug, a.id))} className="hover:text-desert-700">
                            {title(a)}
                          </Link>
                        </p>
                        <p className="mt-1 flex flex-wrap items-center gap-2 text-sm">
                          {a.region && <span className="rounded bg-sand-100 px-2 py-0.5">{regionLabel(a.region)}</span>}
                          {a.contentType === "video" && a.videoUrl && (
                            // Without JavaScript: the article, which has the video.
                            <a
                              href={local(publicUrl("article", a.pageSlug, a.id))}
                              {...videoOpener(playerStart(a.videoUrl), title(a), a.imageUrl)}
                              className="rounded bg-palm-700 px-2 py-0.5 font-bold text-white hover:bg-palm-800"
                              data-testid="play-video"
                            >
                              {t("sectionPages.watch")}
                              <span className="sr-only">: {title(a)}</span>
                            </a>
                          )}
                        </p>
                      </li>
                    ))}
                  </ol>
                </li>
              ))}
            </ol>
          </section>
        ))
      )}
    </section>
  );
}

type ListPage = { items: SectionCard[]; page: number; hasMore: boolean };

/** The lead story and the list under it. */
export function PoliticsListing({
  featured,
  list,
  filtered,
  search,
}: {
  featured: SectionCard | null;
  list: ListPage | null;
  filtered: boolean;
  search: string;
}) {
  const { t } = useTranslation();
  const story = useStory();
  return (
    <>
      {featured && (
        <section aria-labelledby="politics-featured-title" className="mb-10" data-testid="politics-featured">
          <BlockHeading id="politics-featured-title">{t("politicsPage.featured")}</BlockHeading>
          <div className="relative" data-testid="politics-item" data-type={featured.contentType} data-region={featured.region ?? ""}>
            <FeaturedStory {...story(featured)} overlay={<PlayOverlay a={featured} />} />
          </div>
        </section>
      )}
      <section aria-labelledby="politics-list-title" data-testid="politics-list">
        <BlockHeading id="politics-list-title">{t("politicsPage.list")}</BlockHeading>
        {list && list.items.length > 0 ? (
          <div className="grid gap-6 sm:grid-cols-2">
            {list.items.map((a) => (
              <PoliticsCard key={a.id} a={a} />
            ))}
          </div>
        ) : (
          <EmptyState>{t(featured ? "sectionPages.noMore" : filtered ? "sectionPages.emptyFiltered" : "sectionPages.empty")}</EmptyState>
        )}
        {list && <Pager page={list.page} hasMore={list.hasMore} search={search} />}
      </section>
    </>
  );
}

/** The sidebar: trending items and the count of items per region. */
export function PoliticsSidebar({
  trending,
  regions,
  region,
  search,
}: {
  trending: SectionCard[];
  regions: RegionCount[];
  region: Region | null;
  search: string;
}) {
  const { t, lang, title, regionLabel } = usePoliticsText();
  return (
    <aside className="min-w-0 space-y-8">
      <SideBox id="politics-trending-title" title={t("politicsPage.trending")} testId="politics-trending">
        {trending.length === 0 ? (
          <p className="text-ink-soft">{t("sectionPages.empty")}</p>
        ) : (
          <ol className="space-y-4">
            {trending.map((a, i) => (
              <RankedItem key={a.id} rank={i + 1} href={publicUrl("article", a.pageSlug, a.id)} title={title(a)} testId="trending-item">
                <p className="text-sm text-ink-soft">
                  <time dateTime={isoDate(a.publishDate)}>{formatDate(a.publishDate, lang)}</time>
                  {a.region && <> · {regionLabel(a.region)}</>}
                </p>
              </RankedItem>
            ))}
          </ol>
        )}
      </SideBox>

      <SideBox id="politics-regions-title" title={t("politicsPage.byRegion")} testId="politics-regions">
        <ul className="space-y-1">
          {regions.map((r) => (
            <li key={r.region}>
              <Link
                to={hrefWith(search, { region: r.region })}
                preventScrollReset
                aria-current={region === r.region ? "true" : undefined}
                className={`flex items-center justify-between rounded-md px-3 py-2 hover:bg-sand-100 ${region === r.region ? "bg-sand-100 font-bold" : ""}`}
                data-testid={`region-count-${r.region}`}
              >
                <span>{t(`politicsPage.regions.${r.region}`)}</span>
                <span className="rounded-full bg-sand-200 px-2 text-sm" data-testid="region-count">
                  {formatNumber(lang, r.count)}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </SideBox>
    </aside>
  );
}
