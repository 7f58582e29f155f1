import { data, Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/opinion";
import { Byline, ContentCard } from "#app/components/content/content-card.tsx";
import { publicUrl } from "#domain/content-paths.ts";
import { sectionMeta, BlockHeading, EmptyState, FeaturedStory, FilterChips, hrefWith, PageIntro, Pager } from "#app/components/sections/section-ui.tsx";
import { ArticleProposalForm, NewsletterForm, type OpinionActionData } from "#app/components/sections/opinion-forms.tsx";
import { ArticleProposalSchema, NewsletterSchema, proposalFormValues, type ProposalField } from "#domain/schemas/newsletter.ts";
import { fieldErrorsOf } from "#domain/schemas/shared.ts";
import { excerpt } from "#domain/format.ts";
import { localized, textProps } from "#domain/localized.ts";
import { useCount } from "#app/lib/i18n.ts";
import { type Language } from "#domain/language.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { pageParam } from "#domain/query.ts";
import { getDb } from "#server/db/client.server.ts";
import { findSection, listMostRead, listSectionArticles, listSectionChips, pageOfSectionArticles, type SectionCard } from "#server/content/sections.server.ts";
import { NewsletterError, subscribeToNewsletter } from "#server/content/newsletter.server.ts";
import { ContactInputError, createArticleProposal } from "#server/content/contacts.server.ts";
import { contactRateLimiter, newsletterRateLimiter } from "#server/http/rate-limiters.server.ts";
import { clientAddress } from "#server/content/views.server.ts";
import { readFormData, RequestBodyError } from "#server/http/request-body.server.ts";
import { HONEYPOT_FIELD } from "#domain/schemas/contact.ts";
import { translate } from "#server/http/i18n.server.ts";
import { cached } from "#server/content/cache.server.ts";
import { logger } from "#server/ops/logger.server.ts";

/** Spec §9: opinion excerpts are cut at 150 characters; the most-read list has 5 entries. */
const EXCERPT = 150;
const MOST_READ = 5;
const PAGE_SIZE = 12;
const MAX_BODY_BYTES = 64 * 1024;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const page = pageParam(url, "page", 200);
  const lang = languageOfRequest(request);
  const db = await getDb();
  const [section, chips] = await cached("opinion:head", ["categories"], () => Promise.all([findSection(db, "opinion"), listSectionChips(db, "opinion")]));
  const category = url.searchParams.get("category") || undefined;
  if (category && !chips.some((c) => c.slug === category)) throw data(null, { status: 404 });
  // View counts move without invalidating: the cache's time to live bounds how stale "most read" can be.
  const mostRead = await cached("opinion:most-read", ["articles"], () => listMostRead(db, "opinion", MOST_READ));
  const { featured, list } = await cached(`opinion:${category ?? ""}:${page}`, ["articles", "categories"], async () => {
    const featured =
      (await listSectionArticles(db, "opinion", { category, featured: true }, { limit: 1 }))[0] ??
      (await listSectionArticles(db, "opinion", { category }, { limit: 1 }))[0] ??
      null;
    const list = await pageOfSectionArticles(db, "opinion", { category, excludeIds: featured ? [featured.id] : [] }, { page, pageSize: PAGE_SIZE });
    return { featured, list };
  });
  return {
    title: translate(lang, "opinionPage.title"),
    intro: translate(lang, "opinionPage.intro"),
    disclaimer: localized(lang, section?.description, section?.descriptionFr) ?? null,
    chips,
    category: category ?? null,
    featured: page === 1 ? featured : null,
    list,
    mostRead,
  };
}

export const meta: Route.MetaFunction = ({ data, matches, location }) => sectionMeta(matches, data, location);

/** The newsletter sign-up and the write-article box post here (intent = newsletter | proposal). */
export async function action({ request }: Route.ActionArgs) {
  let form: FormData;
  try {
    form = await readFormData(request, MAX_BODY_BYTES);
  } catch (error) {
    if (!(error instanceof RequestBodyError)) throw error;
    return data<OpinionActionData>(
      { intent: null, ok: false, formError: error.code === "BODY_TOO_LARGE" ? "TOO_LARGE" : "BAD_REQUEST" },
      { status: error.status },
    );
  }
  const intent = form.get("intent");
  const rateLimited = async (limiter: typeof newsletterRateLimiter, key: string) => {
    const limit = await limiter.hit(`${key}:${clientAddress(request)}`);
    return limit.allowed ? null : Math.max(1, Math.ceil(limit.retryAfterMs / 1000));
  };

  if (intent === "newsletter") {
    const parsed = NewsletterSchema.safeParse({ email: form.get("email") });
    if (!parsed.success) return data<OpinionActionData>({ intent, ok: false, errors: fieldErrorsOf<"email">(parsed.error) }, { status: 400 });
    const wait = await rateLimited(newsletterRateLimiter, "newsletter");
    if (wait) return data<OpinionActionData>({ intent, ok: false, formError: "RATE_LIMITED" }, { status: 429, headers: { "Retry-After": String(wait) } });
    try {
      // The outcome (new, pending, already confirmed) is deliberately not shown: same answer for all.
      await subscribeToNewsletter(await getDb(), { email: parsed.data.email, language: languageOfRequest(request) });
    } catch (error) {
      if (error instanceof NewsletterError) return data<OpinionActionData>({ intent, ok: false, formError: "MAIL_FAILED" }, { status: 503 });
      throw error;
    }
    return data<OpinionActionData>({ intent, ok: true });
  }

  if (intent === "proposal") {
    const parsed = ArticleProposalSchema.safeParse(proposalFormValues(form));
    if (!parsed.success) return data<OpinionActionData>({ intent, ok: false, errors: fieldErrorsOf<ProposalField>(parsed.error) }, { status: 400 });
    const wait = await rateLimited(contactRateLimiter, "proposal");
    if (wait) return data<OpinionActionData>({ intent, ok: false, formError: "RATE_LIMITED" }, { status: 429, headers: { "Retry-After": String(wait) } });
    // The honeypot: people never see the field, robots fill it in. They get the same answer as everyone.
    const trap = form.get(HONEYPOT_FIELD);
    if (typeof trap === "string" && trap.trim() !== "") {
      logger.info("article proposal: honeypot filled, dropped");
      return data<OpinionActionData>({ intent, ok: true });
    }
    try {
      const row = await createArticleProposal(await getDb(), parsed.data);
      logger.info({ contact: row.id }, "article proposal received");
    } catch (error) {
      if (error instanceof ContactInputError) {
        const e = error.fieldErrors;
        return data<OpinionActionData>({ intent, ok: false, errors: { name: e.name, email: e.email, title: e.subject, summary: e.message } }, { status: 400 });
      }
      logger.error({ err: error }, "article proposal not saved");
      return data<OpinionActionData>({ intent, ok: false, formError: "SAVE_FAILED" }, { status: 500 });
    }
    return data<OpinionActionData>({ intent, ok: true });
  }
  return data<OpinionActionData>({ intent: null, ok: false, formError: "UNKNOWN_INTENT" }, { status: 400 });
}

/** A document POST answered 429 keeps the action's Retry-After. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export default function OpinionPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const count = useCount();
  const lang = i18n.language as Language;
  const { search } = useLocation();
  const { chips, category, featured, list, mostRead, disclaimer } = loaderData;
  const title = (a: SectionCard) => localized(lang, a.title, a.titleFr);
  const chipLinks = [
    { key: "all", label: t("sectionPages.all"), to: hrefWith(search, { category: null }), active: !category },
    ...chips.map((c) => ({ key: c.slug, label: localized(lang, c.name, c.nameFr), to: hrefWith(search, { category: c.slug }), active: category === c.slug })),
  ];
  return (
    <>
      <PageIntro title={loaderData.title} intro={loaderData.intro} testId="opinion-intro">
        <FilterChips label={t("opinionPage.categories")} chips={chipLinks} testId="opinion-chip" />
      </PageIntro>
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-8 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          {featured && (
            <section aria-labelledby="opinion-featured-title" className="mb-10" data-testid="opinion-featured">
              <BlockHeading id="opinion-featured-title">{t("opinionPage.featured")}</BlockHeading>
              <FeaturedStory
                href={publicUrl("article", featured.pageSlug, featured.id)}
                title={title(featured)}
                excerpt={excerpt(localized(lang, featured.excerpt, featured.excerptFr), EXCERPT)}
                imageUrl={featured.imageUrl}
                date={featured.publishDate}
                category={localized(lang, featured.categoryName, featured.categoryNameFr)}
                author={localized(lang, featured.authorName, featured.authorNameFr)}
                testId="opinion-item"
              />
            </section>
          )}
          <section aria-labelledby="opinion-list-title" data-testid="opinion-list">
            <BlockHeading id="opinion-list-title">{t("opinionPage.list")}</BlockHeading>
            {list.items.length > 0 ? (
              <div className="grid gap-6 sm:grid-cols-2">
                {list.items.map((a) => (
                  <ContentCard
                    key={a.id}
                    href={publicUrl("article", a.pageSlug, a.id)}
                    title={title(a)}
                    excerpt={excerpt(localized(lang, a.excerpt, a.excerptFr), EXCERPT)}
                    imageUrl={a.imageUrl}
                    date={a.publishDate}
                    category={localized(lang, a.categoryName, a.categoryNameFr)}
                    author={localized(lang, a.authorName, a.authorNameFr)}
                    testId="opinion-item"
                  />
                ))}
              </div>
            ) : (
              <EmptyState>{t(featured ? "sectionPages.noMore" : category ? "sectionPages.emptyFiltered" : "sectionPages.empty")}</EmptyState>
            )}
            <Pager page={list.page} hasMore={list.hasMore} search={search} />
          </section>
          {disclaimer && <p className="mt-8 text-sm text-ink-soft">{disclaimer}</p>}
        </div>

        <aside className="min-w-0 space-y-8">
          <section aria-labelledby="most-read-title" className="rounded-xl border border-sand-200 bg-white p-5" data-testid="most-read">
            <h2 id="most-read-title" className="mb-4 text-xl font-bold">
              {t("opinionPage.mostRead")}
            </h2>
            <ol className="space-y-4">
              {mostRead.map((a, i) => (
                <li key={a.id} className="flex gap-3" data-testid="most-read-item" data-views={a.viewCount}>
                  <span className="text-2xl font-bold text-desert-600" aria-hidden="true">
                    {i + 1}
                  </span>
                  <div className="min-w-0">
                    <Link to={publicUrl("article", a.pageSlug, a.id)} className="font-bold leading-snug hover:text-desert-700" {...textProps(lang, title(a))}>
                      {title(a)}
                    </Link>
                    <Byline author={localized(lang, a.authorName, a.authorNameFr)} extra={count("sectionPages.views", a.viewCount)} />
                  </div>
                </li>
              ))}
            </ol>
          </section>
          <NewsletterForm />
        </aside>
      </div>
      <div className="mx-auto max-w-7xl px-4 pb-12">
        <ArticleProposalForm />
      </div>
    </>
  );
}
