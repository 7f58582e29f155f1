import { data, Form, useNavigation } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/newsletter";
import { AdminError } from "#app/components/admin/guard.tsx";
import { Composer } from "#app/components/admin/newsletter/composer.tsx";
import {
  inputClass,
  LANGUAGE_NAMES,
  smallButton,
  type NewsletterAnswer,
  type NewsletterIntent,
  type NewsletterView,
} from "#app/components/admin/newsletter/newsletter-types.ts";
import { SendsTable } from "#app/components/admin/newsletter/sends-table.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { asText } from "#domain/content-form.ts";
import { formatDate } from "#domain/format.ts";
import { LANGUAGES, type Language } from "#domain/language.ts";
import {
  DIGEST_PERIODS,
  itemRefKey,
  NEWSLETTER_SEND_KINDS,
  NewsletterSendSchema,
  parseItemRef,
  type DigestPeriod,
  type NewsletterSendKind,
} from "#domain/newsletter-sends.ts";
import { formatNumber } from "#domain/plural.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { BadRequestError, ValidationError } from "#server/http/errors.server.ts";
import { checkForm, formAction, formSuccess } from "#server/http/form-action.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { renderNewsletter } from "#server/newsletter/compose.server.ts";
import { digestCandidates, recentItems, resolveItems, type NewsletterItem } from "#server/newsletter/items.server.ts";
import { audienceSize, cancelSend, createSend, resumeSend, listSends } from "#server/newsletter/sends.server.ts";
import { queueNewsletterSend } from "#server/newsletter/jobs.server.ts";
import { parseId } from "#domain/ids.ts";

/**
 * The newsletter screen (issue 32, decision 0126): compose a digest — the day's or the week's top published
 * items in one language, chosen by priority and reads, then edited (removed, reordered, added; subject and
 * intro) — or a one-off send of any item; preview it as the mail clients will show it (Arabic right to left);
 * send it through the job queue; and follow past sends with their counts (sent, failed, unsubscribed).
 */

function viewOf(url: URL): NewsletterView {
  const kind = url.searchParams.get("kind");
  const period = url.searchParams.get("period");
  const language = url.searchParams.get("lang");
  return {
    kind: (NEWSLETTER_SEND_KINDS as readonly string[]).includes(kind ?? "") ? (kind as NewsletterSendKind) : "digest",
    period: (DIGEST_PERIODS as readonly string[]).includes(period ?? "") ? (period as DigestPeriod) : "daily",
    language: (LANGUAGES as readonly string[]).includes(language ?? "") ? (language as Language) : "ar",
    item: parseItemRef(url.searchParams.get("item")),
  };
}

const PRIVATE = { "Cache-Control": "private, no-store" };

/** The preview's links carry this in place of a subscriber's token (they lead to the "invalid link" page). */
const PREVIEW_TOKEN = "preview".padEnd(43, "0");

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "newsletter.send");
  const view = viewOf(new URL(request.url));
  const db = await getDb();
  const config = getConfig();
  const [candidates, recent, audience, sends] = await Promise.all([
    view.kind === "digest" ? digestCandidates(db, { period: view.period, language: view.language }) : Promise.resolve([]),
    recentItems(db, view.language),
    audienceSize(db, view),
    listSends(db),
  ]);
  let initial: NewsletterItem[] = candidates;
  if (view.kind === "item") {
    const chosen = view.item ? await resolveItems(db, [view.item], view.language).catch(() => []) : [];
    initial = chosen.length ? chosen : recent.slice(0, 1);
  }
  const site = view.language === "ar" ? config.SITE_NAME : config.SITE_NAME_FR;
  const subject =
    view.kind === "digest"
      ? translate(view.language, `newsletterAdmin.defaultSubject.${view.period}`)
          .replaceAll("{site}", site)
          .replaceAll("{date}", formatDate(new Date(), view.language))
      : (initial[0]?.title ?? "");
  return data(
    {
      view,
      initial,
      recent,
      audience,
      sends,
      subject,
      settings: { batchSize: config.NEWSLETTER_BATCH_SIZE, ratePerMinute: config.NEWSLETTER_RATE_PER_MINUTE },
    },
    { headers: PRIVATE },
  );
}

const idOf = (value: FormDataEntryValue | null) => parseId(value) ?? 0;

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "newsletter.send");
  return formAction<NewsletterAnswer>(request, {}, async (form) => {
    const intent = asText(form.get("intent")) as NewsletterIntent;
    const db = await getDb();
    if (intent === "cancel") {
      await cancelSend(db, idOf(form.get("id")));
      return formSuccess<NewsletterAnswer>({ intent });
    }
    if (intent === "resume") {
      await resumeSend(db, idOf(form.get("id")), queueNewsletterSend);
      return formSuccess<NewsletterAnswer>({ intent });
    }
    if (intent !== "preview" && intent !== "send") throw new BadRequestError("BAD_REQUEST", "Not a newsletter action.");
    const input = checkForm(NewsletterSendSchema, {
      kind: asText(form.get("kind")),
      period: asText(form.get("period")) || undefined,
      language: asText(form.get("language")),
      subject: asText(form.get("subject")),
      intro: asText(form.get("intro")).trim() ? asText(form.get("intro")) : undefined,
      items: form.getAll("items").map(asText),
    });
    if (input.kind === "item" && input.items.length !== 1) {
      throw new ValidationError("A one-off send has one item.", { items: "newsletterAdmin.errors.oneItem" }, { status: 400, code: "INVALID" });
    }
    const refs = input.items.map((i) => parseItemRef(i)!);
    const period = input.kind === "digest" ? (input.period ?? "daily") : null;
    if (intent === "preview") {
      const items = await resolveItems(db, refs, input.language);
      const mail = renderNewsletter(
        { kind: input.kind, language: input.language, subject: input.subject, intro: input.intro ?? null, items },
        { token: PREVIEW_TOKEN, sendId: null },
      );
      return formSuccess<NewsletterAnswer>({ intent, preview: { subject: mail.subject, html: mail.html, language: input.language } });
    }
    const { id, total } = await createSend(
      db,
      { kind: input.kind, period, language: input.language, subject: input.subject, intro: input.intro ?? null, items: refs },
      { user: { id: user.id, name: user.name, email: user.email }, enqueueJob: queueNewsletterSend },
    );
    return formSuccess<NewsletterAnswer>({ intent, sendId: id, total });
  });
}

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "newsletterAdmin.title");

export default function NewsletterScreen({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { view, sends, settings } = loaderData;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/admin/newsletter";
  return (
    <div className="space-y-8" data-testid="newsletter-screen">
      <header>
        <h1 className="text-2xl font-bold">{t("newsletterAdmin.title")}</h1>
        <p className="mt-1 text-sm text-ink-soft">
          {t("newsletterAdmin.settings", { batch: formatNumber(lang, settings.batchSize), rate: formatNumber(lang, settings.ratePerMinute) })}
        </p>
      </header>
      <Form method="get" className="flex flex-wrap items-end gap-4 rounded-lg border border-sand-200 bg-white p-4" data-testid="newsletter-choose">
        <label className="flex flex-col gap-1 text-sm font-bold">
          {t("newsletterAdmin.kind")}
          <select name="kind" defaultValue={view.kind} className={inputClass} data-testid="newsletter-kind">
            {NEWSLETTER_SEND_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`newsletterAdmin.kinds.${k}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-bold">
          {t("newsletterAdmin.period")}
          <select name="period" defaultValue={view.period} className={inputClass} data-testid="newsletter-period">
            {DIGEST_PERIODS.map((p) => (
              <option key={p} value={p}>
                {t(`newsletterAdmin.periods.${p}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-bold">
          {t("newsletterAdmin.language")}
          <select name="lang" defaultValue={view.language} className={inputClass} data-testid="newsletter-language">
            {LANGUAGES.map((l) => (
              <option key={l} value={l} lang={l}>
                {LANGUAGE_NAMES[l]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={smallButton} data-testid="newsletter-load">
          {t("newsletterAdmin.load")}
        </button>
        {loading ? <span className="text-sm text-ink-soft">{t("newsletterAdmin.loading")}</span> : null}
      </Form>
      <Composer
        key={`${view.kind}-${view.period}-${view.language}-${loaderData.initial.map(itemRefKey).join(",")}`}
        view={view}
        initial={loaderData.initial}
        recent={loaderData.recent}
        audience={loaderData.audience}
        subject={loaderData.subject}
      />
      <SendsTable sends={sends} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
