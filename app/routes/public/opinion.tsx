import { data, useLocation } from "react-router";
import type { Route } from "./+types/opinion";
import formsScript from "#app/enhance/forms.js?url&no-inline";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { Byline, ContentCard } from "#app/components/content/content-card.tsx";
import { publicUrl } from "#domain/content-types/index.ts";
import {
  sectionMeta,
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
import { ArticleProposalForm, NewsletterForm, type OpinionActionData } from "#app/components/sections/opinion-forms.tsx";
import { ArticleProposalSchema, NewsletterSchema, proposalFormValues } from "#domain/schemas/newsletter.ts";
import { localized } from "#domain/localized.ts";
import { bylineLinks } from "#domain/authors.ts";
import { useCount, useTranslation } from "#app/lib/i18n.ts";
import { type Language } from "#domain/language.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { pageParam } from "#domain/query.ts";
import { getDb } from "#server/db/client.server.ts";
import { imageDetailsOf } from "#server/content/image-details.server.ts";
import { ImageDetailsProvider } from "#app/components/content/image-details.tsx";
import { loadSectionHead, type SectionCard } from "#server/content/sections.server.ts";
import { loadLeadAndList, loadListing } from "#server/content/listings.server.ts";
import { LEAD_AND_LIST, LISTINGS } from "#domain/listings.ts";
import { subscribeToNewsletter } from "#server/newsletter/subscriptions.server.ts";
import { ContactInputError, createArticleProposal } from "#server/content/contacts.server.ts";
import { contactRateLimiter, newsletterRateLimiter } from "#server/http/rate-limiters.server.ts";
import { clientAddress } from "#server/content/views.server.ts";
import { BadRequestError, RateLimitedError, ValidationError } from "#server/http/errors.server.ts";
import { checkForm, failedWhile, formAction, formSuccess } from "#server/http/form-action.server.ts";
import { CONTACT_MAX_BODY_BYTES, HONEYPOT_FIELD } from "#domain/schemas/contact.ts";
import { translate } from "#server/http/i18n.server.ts";
import { logger } from "#server/ops/logger.server.ts";

/** No React in the browser: filters are links, the two forms are checked and sent by app/enhance/forms.js (decision 0131). */
export const handle: ReadingHandle = { hydrate: false, enhance: [formsScript] };

/** Spec §9: opinion excerpts are cut at 150 characters (the most-read list's 5 entries: domain/listings.ts). */
const EXCERPT = 150;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const page = pageParam(url, "page", 200);
  const lang = languageOfRequest(request);
  const db = await getDb();
  const { section, chips } = await loadSectionHead(db, "opinion");
  const category = url.searchParams.get("category") || undefined;
  if (category && !chips.some((c) => c.slug === category)) throw data(null, { status: 404 });
  // View counts move without invalidating: the cache's time to live bounds how stale "most read" can be.
  const mostRead = await loadListing(db, LISTINGS.mostRead("opinion"));
  const { lead, list } = await loadLeadAndList(db, LEAD_AND_LIST.opinion, { category }, page);
  const featured: SectionCard | null = lead[0] ?? null;
  const result = {
    title: translate(lang, "opinionPage.title"),
    intro: translate(lang, "opinionPage.intro"),
    disclaimer: localized(lang, section?.description, section?.descriptionFr) ?? null,
    chips,
    category: category ?? null,
    featured: page === 1 ? featured : null,
    list,
    mostRead,
  };
  return { ...result, images: await imageDetailsOf(db, result) };
}

export const meta: Route.MetaFunction = ({ data, matches, location }) => sectionMeta(matches, data, location);

const INTENTS = ["newsletter", "proposal"] as const;
type Intent = (typeof INTENTS)[number];
const intentOf = (form: FormData | null): Intent | null => INTENTS.find((i) => i === form?.get("intent")) ?? null;

/** A second post within the limiter's window, refused with when to come back (429). */
async function holdBack(request: Request, limiter: typeof newsletterRateLimiter, key: string) {
  const limit = await limiter.hit(`${key}:${clientAddress(request)}`);
  if (!limit.allowed) throw new RateLimitedError("Too many posts from this address.", { retryAfterSeconds: limit.retryAfterMs / 1000 });
}

/**
 * The newsletter sign-up and the write-article box post here (intent = newsletter | proposal). The body is
 * held to the contact form's limit (the proposal becomes a contact message); every refusal is the one form
 * answer (server/http/form-action.server.ts) with the intent it concerns.
 */
export async function action({ request }: Route.ActionArgs) {
  const echo = (form: FormData | null) => ({ intent: intentOf(form) }) as Partial<Extract<OpinionActionData, { ok: false }>>;
  return formAction<OpinionActionData>(request, { limit: CONTACT_MAX_BODY_BYTES, echo }, async (form) => {
    const intent = intentOf(form);

    if (intent === "newsletter") {
      const { email } = checkForm(NewsletterSchema, { email: form.get("email") });
      await holdBack(request, newsletterRateLimiter, "newsletter");
      // The same answer, in the same time, for a new, pending or confirmed address: the request only queues the
      // confirmation's job (server/newsletter/subscriptions.server.ts), which sends the e-mail.
      await subscribeToNewsletter(await getDb(), { email, language: languageOfRequest(request) });
      return formSuccess<OpinionActionData>({ intent });
    }

    if (intent === "proposal") {
      const proposal = checkForm(ArticleProposalSchema, proposalFormValues(form));
      await holdBack(request, contactRateLimiter, "proposal");
      // The honeypot: people never see the field, robots fill it in. They get the same answer as everyone.
      const trap = form.get(HONEYPOT_FIELD);
      if (typeof trap === "string" && trap.trim() !== "") {
        logger.info("article proposal: honeypot filled, dropped");
        return formSuccess<OpinionActionData>({ intent });
      }
      try {
        const row = await createArticleProposal(await getDb(), proposal);
        logger.info({ contact: row.id }, "article proposal received");
      } catch (error) {
        if (error instanceof ContactInputError) {
          // The contact row's names, back to the box's.
          const e = error.fieldErrors;
          const fields = Object.fromEntries(
            Object.entries({ name: e.name, email: e.email, title: e.subject, summary: e.message }).filter(([, v]) => v),
          ) as Record<string, string>;
          throw new ValidationError("The proposal was refused.", fields, { status: 400, code: "INVALID" });
        }
        throw failedWhile("article proposal not saved", error);
      }
      return formSuccess<OpinionActionData>({ intent });
    }
    throw new BadRequestError("UNKNOWN_INTENT", "The form asks for something this page does not do.");
  });
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
    <ImageDetailsProvider images={loaderData.images}>
      <PageIntro title={loaderData.title} intro={loaderData.intro} testId="opinion-intro">
        <FilterChips label={t("opinionPage.categories")} chips={chipLinks} testId="opinion-chip" />
      </PageIntro>
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-8 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          {featured && (
            <section aria-labelledby="opinion-featured-title" className="mb-10" data-testid="opinion-featured">
              <BlockHeading id="opinion-featured-title">{t("opinionPage.featured")}</BlockHeading>
              <FeaturedStory {...storyOf(featured, lang, EXCERPT)} testId="opinion-item" />
            </section>
          )}
          <section aria-labelledby="opinion-list-title" data-testid="opinion-list">
            <BlockHeading id="opinion-list-title">{t("opinionPage.list")}</BlockHeading>
            {list.items.length > 0 ? (
              <div className="grid gap-6 sm:grid-cols-2">
                {list.items.map((a) => (
                  <ContentCard key={a.id} {...storyOf(a, lang, EXCERPT)} testId="opinion-item" />
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
          <SideBox id="most-read-title" title={t("opinionPage.mostRead")} testId="most-read">
            <ol className="space-y-4">
              {mostRead.map((a, i) => (
                <RankedItem key={a.id} rank={i + 1} href={publicUrl("article", a.pageSlug, a.id)} title={title(a)} testId="most-read-item" views={a.viewCount}>
                  <Byline
                    author={localized(lang, a.authorName, a.authorNameFr)}
                    authors={bylineLinks(lang, a.bylines)}
                    extra={count("sectionPages.views", a.viewCount)}
                  />
                </RankedItem>
              ))}
            </ol>
          </SideBox>
          <NewsletterForm />
        </aside>
      </div>
      <div className="mx-auto max-w-7xl px-4 pb-12">
        <ArticleProposalForm />
      </div>
    </ImageDetailsProvider>
  );
}
