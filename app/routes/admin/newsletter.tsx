import { useEffect, useState } from "react";
import { data, Form, useFetcher, useLoaderData, useNavigation } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/newsletter";
import { AdminError } from "#app/components/admin/guard.tsx";
import { cancelButtonClass, DIALOG_WIDTH, ModalDialog } from "#app/components/admin/modal-dialog.tsx";
import { useToast } from "#app/components/ui/toast.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { asText } from "#domain/content-form.ts";
import { formatDate } from "#domain/format.ts";
import type { FormAnswer } from "#domain/form-answer.ts";
import { LANGUAGES, type Language } from "#domain/language.ts";
import {
  DIGEST_PERIODS,
  itemRefKey,
  NEWSLETTER_LIMITS,
  NEWSLETTER_SEND_KINDS,
  NewsletterSendSchema,
  parseItemRef,
  type DigestPeriod,
  type NewsletterItemRef,
  type NewsletterSendKind,
} from "#domain/newsletter-sends.ts";
import { formatNumber } from "#domain/plural.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { BadRequestError, ValidationError } from "#server/http/errors.server.ts";
import { checkForm, formAction, formSuccess } from "#server/http/form-action.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import {
  audienceSize,
  cancelSend,
  createSend,
  digestCandidates,
  recentItems,
  renderNewsletter,
  resolveItems,
  resumeSend,
  listSends,
  type NewsletterItem,
} from "#server/content/newsletter-sends.server.ts";
import { queueNewsletterSend } from "#server/jobs/newsletter.server.ts";
import { parseId } from "#domain/ids.ts";

/**
 * The newsletter screen (issue 32, decision 0126): compose a digest — the day's or the week's top published
 * items in one language, chosen by priority and reads, then edited (removed, reordered, added; subject and
 * intro) — or a one-off send of any item; preview it as the mail clients will show it (Arabic right to left);
 * send it through the job queue; and follow past sends with their counts (sent, failed, unsubscribed).
 */

type View = { kind: NewsletterSendKind; period: DigestPeriod; language: Language; item: NewsletterItemRef | null };

function viewOf(url: URL): View {
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

type Intent = "preview" | "send" | "cancel" | "resume";
type NewsletterAnswer = FormAnswer<string, string> & {
  intent?: Intent;
  preview?: { subject: string; html: string; language: Language };
  sendId?: number;
  total?: number;
};

const idOf = (value: FormDataEntryValue | null) => parseId(value) ?? 0;

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "newsletter.send");
  return formAction<NewsletterAnswer>(request, {}, async (form) => {
    const intent = asText(form.get("intent")) as Intent;
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

const inputClass =
  "w-full rounded-md border border-sand-300 bg-white px-3 py-2 focus:border-desert-500 focus:ring-2 focus:ring-desert-500/30 focus:outline-none";
const smallButton = "inline-flex h-9 items-center rounded-md border border-sand-300 bg-white px-3 text-sm font-bold hover:bg-sand-100 disabled:opacity-40";
const primaryButton = "inline-flex h-11 items-center rounded-md bg-desert-600 px-5 font-bold text-white hover:bg-desert-700 disabled:opacity-50";
const LANGUAGE_NAMES: Record<Language, string> = { ar: "العربية", fr: "Français", en: "English" };

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
      <Composer key={`${view.kind}-${view.period}-${view.language}-${loaderData.initial.map(itemRefKey).join(",")}`} />
      <SendsTable sends={sends} />
    </div>
  );
}

type Item = { type: string; id: number; title: string; url: string; priority?: string; reads?: number; publishDate: string };

function Composer() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const loaderData = useLoaderData<typeof loader>();
  const { view, initial, recent, audience } = loaderData;
  const [items, setItems] = useState<Item[]>(initial);
  const [adding, setAdding] = useState("");
  const [confirming, setConfirming] = useState(false);
  const composer = useFetcher<NewsletterAnswer>({ key: "newsletter-compose" });
  const answer = composer.state === "idle" ? composer.data : undefined;
  const previewAnswer = answer?.ok && answer.intent === "preview" ? answer : undefined;
  const sendAnswer = answer && (answer.ok ? answer.intent === "send" : true) ? answer : undefined;
  const fields = (answer && !answer.ok ? answer.fields : undefined) ?? {};
  const lang = i18n.language as Language;

  useEffect(() => {
    if (!sendAnswer) return;
    if (sendAnswer.ok && sendAnswer.intent === "send") {
      toast({ title: t("newsletterAdmin.queued", { total: formatNumber(lang, sendAnswer.total ?? 0) }), variant: "success" });
    } else if (!sendAnswer.ok) {
      toast({ title: t("newsletterAdmin.failed"), description: sendAnswer.fields ? t("newsletterAdmin.checkFields") : undefined, variant: "destructive" });
    }
  }, [sendAnswer, t, toast, lang]);

  const chosen = new Set(items.map((i) => `${i.type}:${i.id}`));
  const addable = recent.filter((r) => !chosen.has(`${r.type}:${r.id}`));
  const move = (index: number, by: number) =>
    setItems((current) => {
      const next = [...current];
      const [moved] = next.splice(index, 1);
      next.splice(Math.max(0, Math.min(next.length, index + by)), 0, moved);
      return next;
    });
  const add = () => {
    const found = recent.find((r) => `${r.type}:${r.id}` === adding);
    if (!found) return;
    setItems((current) => (view.kind === "item" ? [found] : [...current, found].slice(0, NEWSLETTER_LIMITS.items)));
    setAdding("");
  };
  const sendId = sendAnswer?.ok && sendAnswer.intent === "send" ? sendAnswer.sendId : undefined;

  const hidden = (
    <>
      <input type="hidden" name="kind" value={view.kind} />
      <input type="hidden" name="period" value={view.period} />
      <input type="hidden" name="language" value={view.language} />
      {items.map((item) => (
        <input key={`${item.type}:${item.id}`} type="hidden" name="items" value={`${item.type}:${item.id}`} />
      ))}
    </>
  );

  return (
    <section className="rounded-lg border border-sand-200 bg-white p-4" aria-labelledby="newsletter-compose-title" data-testid="newsletter-composer">
      <h2 id="newsletter-compose-title" className="text-xl font-bold">
        {t(view.kind === "digest" ? `newsletterAdmin.composeDigest.${view.period}` : "newsletterAdmin.composeItem")}
      </h2>
      <p className="mt-1 text-sm text-ink-soft" data-testid="newsletter-audience" data-count={audience}>
        {t("newsletterAdmin.audience", { total: formatNumber(lang, audience), language: LANGUAGE_NAMES[view.language] })}
      </p>
      <composer.Form method="post" className="mt-4 space-y-4" id="newsletter-form">
        {hidden}
        <label className="block">
          <span className="mb-1 block font-bold">{t("newsletterAdmin.subject")}</span>
          <input
            name="subject"
            defaultValue={loaderData.subject}
            maxLength={NEWSLETTER_LIMITS.subject}
            className={inputClass}
            dir="auto"
            aria-invalid={fields.subject ? true : undefined}
            aria-describedby={fields.subject ? "newsletter-subject-error" : undefined}
            data-testid="newsletter-subject"
          />
          {fields.subject ? (
            <span id="newsletter-subject-error" className="mt-1 block text-sm text-red-700">
              {t(fields.subject)}
            </span>
          ) : null}
        </label>
        <label className="block">
          <span className="mb-1 block font-bold">{t("newsletterAdmin.intro")}</span>
          <textarea name="intro" rows={3} maxLength={NEWSLETTER_LIMITS.intro} className={inputClass} dir="auto" data-testid="newsletter-intro" />
          {fields.intro ? <span className="mt-1 block text-sm text-red-700">{t(fields.intro)}</span> : null}
        </label>
        <div>
          <h3 className="mb-2 font-bold">{t("newsletterAdmin.items")}</h3>
          {items.length === 0 ? <p className="text-sm text-ink-soft">{t("newsletterAdmin.noItems")}</p> : null}
          <ol className="space-y-2" data-testid="newsletter-items">
            {items.map((item, index) => (
              <li
                key={`${item.type}:${item.id}`}
                className="flex flex-wrap items-center gap-2 rounded-md border border-sand-200 p-2"
                data-testid="newsletter-item"
                data-ref={`${item.type}:${item.id}`}
              >
                <span className="w-6 text-center font-bold text-ink-soft">{formatNumber(lang, index + 1)}</span>
                <span className="min-w-0 flex-1">
                  <span className="block font-bold" dir="auto">
                    {item.title}
                  </span>
                  <span className="text-xs text-ink-soft">
                    {t(`newsletterAdmin.types.${item.type}`)} · {formatDate(item.publishDate, lang)}
                    {item.priority ? ` · ${t(`newsletterAdmin.priority.${item.priority}`)}` : ""}
                    {item.reads !== undefined ? ` · ${t("newsletterAdmin.reads", { n: formatNumber(lang, item.reads) })}` : ""}
                  </span>
                </span>
                <button
                  type="button"
                  className={smallButton}
                  onClick={() => move(index, -1)}
                  disabled={index === 0}
                  aria-label={`${t("newsletterAdmin.up")} ${item.title}`}
                >
                  {t("newsletterAdmin.up")}
                </button>
                <button
                  type="button"
                  className={smallButton}
                  onClick={() => move(index, 1)}
                  disabled={index === items.length - 1}
                  aria-label={`${t("newsletterAdmin.down")} ${item.title}`}
                >
                  {t("newsletterAdmin.down")}
                </button>
                <button
                  type="button"
                  className={smallButton}
                  onClick={() => setItems((current) => current.filter((_, i) => i !== index))}
                  aria-label={`${t("newsletterAdmin.remove")} ${item.title}`}
                  data-testid="newsletter-item-remove"
                >
                  {t("newsletterAdmin.remove")}
                </button>
              </li>
            ))}
          </ol>
          {fields.items ? (
            <p className="mt-1 text-sm text-red-700" role="alert">
              {t(fields.items)}
            </p>
          ) : null}
          <div className="mt-3 flex flex-wrap items-end gap-2">
            <label className="flex min-w-64 flex-1 flex-col gap-1 text-sm font-bold">
              {t(view.kind === "item" ? "newsletterAdmin.chooseItem" : "newsletterAdmin.addItem")}
              <select value={adding} onChange={(e) => setAdding(e.target.value)} className={inputClass} data-testid="newsletter-add-select">
                <option value="">—</option>
                {addable.map((r) => (
                  <option key={`${r.type}:${r.id}`} value={`${r.type}:${r.id}`}>
                    {`${t(`newsletterAdmin.types.${r.type}`)}: ${r.title}`}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" className={smallButton} onClick={add} disabled={!adding} data-testid="newsletter-add">
              {t(view.kind === "item" ? "newsletterAdmin.choose" : "newsletterAdmin.add")}
            </button>
          </div>
        </div>
        <div className="flex flex-wrap gap-3 border-t border-sand-200 pt-4">
          <button type="submit" name="intent" value="preview" className={smallButton} data-testid="newsletter-preview" disabled={composer.state !== "idle"}>
            {t("newsletterAdmin.preview")}
          </button>
          <button
            type="button"
            className={primaryButton}
            onClick={() => setConfirming(true)}
            disabled={!items.length || audience === 0}
            data-testid="newsletter-send"
          >
            {t("newsletterAdmin.send")}
          </button>
        </div>
      </composer.Form>
      {sendId ? (
        <p role="status" className="mt-3 rounded-md bg-palm-50 p-3 font-bold text-palm-800" data-testid="newsletter-queued">
          {t("newsletterAdmin.queued", { total: formatNumber(lang, sendAnswer?.total ?? 0) })}
        </p>
      ) : null}
      {previewAnswer?.ok && previewAnswer.preview ? (
        <div className="mt-6" data-testid="newsletter-preview-pane" data-language={previewAnswer.preview.language}>
          <h3 className="mb-2 font-bold">
            {t("newsletterAdmin.previewTitle")}: <bdi>{previewAnswer.preview.subject}</bdi>
          </h3>
          <iframe
            title={t("newsletterAdmin.previewTitle")}
            srcDoc={previewAnswer.preview.html}
            sandbox=""
            className="h-[36rem] w-full rounded-md border border-sand-200 bg-white"
            data-testid="newsletter-preview-frame"
          />
        </div>
      ) : null}
      <ModalDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        labelledBy="newsletter-confirm-title"
        describedBy="newsletter-confirm-text"
        width={DIALOG_WIDTH.medium}
        testId="newsletter-confirm-dialog"
      >
        <div>
          <h2 id="newsletter-confirm-title" className="text-lg font-bold">
            {t("newsletterAdmin.confirmTitle")}
          </h2>
          <p id="newsletter-confirm-text" className="mt-2">
            {t("newsletterAdmin.confirmText", { total: formatNumber(lang, audience), language: LANGUAGE_NAMES[view.language] })}
          </p>
          <div className="mt-5 flex justify-end gap-2">
            <button type="button" className={cancelButtonClass} onClick={() => setConfirming(false)}>
              {t("newsletterAdmin.cancel")}
            </button>
            {/* Submits the composer's form (subject and intro as typed, the items in their order). */}
            <button
              type="submit"
              form="newsletter-form"
              name="intent"
              value="send"
              className={primaryButton}
              onClick={() => setTimeout(() => setConfirming(false))}
              data-testid="newsletter-send-confirm"
            >
              {t("newsletterAdmin.sendNow")}
            </button>
          </div>
        </div>
      </ModalDialog>
    </section>
  );
}

type LoaderData = Route.ComponentProps["loaderData"];

function SendsTable({ sends }: { sends: LoaderData["sends"] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const fetcher = useFetcher<NewsletterAnswer>({ key: "newsletter-send-state" });
  return (
    <section aria-labelledby="newsletter-sends-title" className="rounded-lg border border-sand-200 bg-white p-4">
      <h2 id="newsletter-sends-title" className="mb-3 text-xl font-bold">
        {t("newsletterAdmin.pastSends")}
      </h2>
      {sends.length === 0 ? (
        <p className="text-ink-soft">{t("newsletterAdmin.noSends")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-start text-sm" data-testid="newsletter-sends">
            <thead>
              <tr className="border-b border-sand-200 text-ink-soft">
                <th className="p-2 text-start">{t("newsletterAdmin.columns.date")}</th>
                <th className="p-2 text-start">{t("newsletterAdmin.columns.subject")}</th>
                <th className="p-2 text-start">{t("newsletterAdmin.columns.kind")}</th>
                <th className="p-2 text-start">{t("newsletterAdmin.columns.state")}</th>
                <th className="p-2 text-end">{t("newsletterAdmin.columns.total")}</th>
                <th className="p-2 text-end">{t("newsletterAdmin.columns.sent")}</th>
                <th className="p-2 text-end">{t("newsletterAdmin.columns.failed")}</th>
                <th className="p-2 text-end">{t("newsletterAdmin.columns.unsubscribed")}</th>
                <th className="p-2" />
              </tr>
            </thead>
            <tbody>
              {sends.map((s) => (
                <tr key={s.id} className="border-b border-sand-100" data-testid="newsletter-send-row" data-id={s.id} data-state={s.state}>
                  <td className="p-2 whitespace-nowrap">{formatDate(s.createdAt, lang, "short")}</td>
                  <td className="p-2" dir="auto">
                    {s.subject}
                  </td>
                  <td className="p-2 whitespace-nowrap">
                    {t(s.kind === "digest" ? `newsletterAdmin.periods.${s.period ?? "daily"}` : "newsletterAdmin.kinds.item")} ·{" "}
                    {LANGUAGE_NAMES[s.language] ?? s.language}
                  </td>
                  <td className="p-2 whitespace-nowrap" title={s.lastError ?? undefined}>
                    {t(`newsletterAdmin.states.${s.state}`)}
                  </td>
                  <td className="p-2 text-end">{formatNumber(lang, s.total)}</td>
                  <td className="p-2 text-end" data-testid="send-sent" data-value={s.sent}>
                    {formatNumber(lang, s.sent)}
                  </td>
                  <td className="p-2 text-end" data-testid="send-failed" data-value={s.failed}>
                    {formatNumber(lang, s.failed)}
                  </td>
                  <td className="p-2 text-end" data-testid="send-unsubscribed" data-value={s.unsubscribed}>
                    {formatNumber(lang, s.unsubscribed)}
                  </td>
                  <td className="p-2">
                    {s.state === "queued" || s.state === "sending" || (s.state === "failed" && s.pending > 0) ? (
                      <fetcher.Form method="post">
                        <input type="hidden" name="id" value={s.id} />
                        <button type="submit" name="intent" value={s.state === "failed" ? "resume" : "cancel"} className={smallButton}>
                          {t(s.state === "failed" ? "newsletterAdmin.resume" : "newsletterAdmin.stop")}
                        </button>
                      </fetcher.Form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
