import { useEffect, useRef, useState } from "react";
import { data, Form, Link, redirect, useFetcher, useLocation, useNavigation } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/contacts";
import { AdminError } from "#app/components/admin/guard.tsx";
import { Notice, useAnswerToast } from "#app/components/forms/notice.tsx";
import { MailIcon } from "#app/components/ui/icons.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { getDb } from "#server/db/client.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { NotFoundError, ValidationError } from "#server/http/errors.server.ts";
import { deleteContact, listContacts, openContact, setContactStatus, type ContactDetail, type ContactPage } from "#server/content/contacts.server.ts";
import { CONTACT_FILTERS, CONTACTS_PAGE_SIZE, contactIdOf, isContactFilter, type ContactFilter } from "#domain/contacts.ts";
import { readForm, requirePermission } from "#server/auth/session.server.ts";
import { formatNumber } from "#domain/plural.ts";

/**
 * The contact inbox (back-office.md §2 "Contact inbox", §4 contact status, §5 "Contact deletion", §8).
 * Everything the screen shows is in its URL — ?status=new&page=2&id=17 — so it works as plain links and
 * forms without JavaScript; with it, the status toggle runs in a fetcher and answers come as toasts.
 */

type View = { status: ContactFilter; page: number; id?: number | null; confirm?: boolean };

/** The inbox URL of a view; defaults are left out so the plain /admin/contacts stays the inbox's address. */
function hrefOf({ status, page, id, confirm }: View): string {
  const q = new URLSearchParams();
  if (status !== "all") q.set("status", status);
  if (page > 1) q.set("page", String(page));
  if (id) q.set("id", String(id));
  if (id && confirm) q.set("confirm", "delete");
  const query = q.toString();
  return `/admin/contacts${query ? `?${query}` : ""}`;
}

function viewOf(url: URL): View & { id: number | null } {
  const status = url.searchParams.get("status");
  const page = url.searchParams.get("page") ?? "";
  return {
    status: isContactFilter(status) ? status : "all",
    // A mistyped page number is no reason to refuse the inbox: it shows the first page.
    page: /^\d{1,6}$/.test(page) && Number(page) > 0 ? Number(page) : 1,
    id: contactIdOf(url.searchParams.get("id")),
    confirm: url.searchParams.get("confirm") === "delete",
  };
}

const EMPTY_PAGE: ContactPage = { items: [], total: 0, page: 1, perPage: CONTACTS_PAGE_SIZE, pages: 1, counts: { all: 0, new: 0, read: 0, replied: 0 } };
const PRIVATE = { "Cache-Control": "private, no-store" };

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "contacts.manage");
  const view = viewOf(new URL(request.url));
  const db = await getDb();
  let list: ContactPage;
  let selected: ContactDetail | null = null;
  try {
    list = await listContacts(db, { status: view.status, page: view.page });
    const opened = view.id ? await openContact(db, view.id) : null;
    selected = opened?.message ?? null;
    if (opened?.markedRead) {
      // Opening marked it read (back-office.md §4). The list was read just before: it keeps the message in
      // place, under the "new" filter too, as a mail reader does, and shows it read in the list and the counts.
      list.items = list.items.map((m) => (m.id === opened.message.id ? { ...m, status: "read" as const } : m));
      list.counts = { ...list.counts, new: list.counts.new - 1, read: list.counts.read + 1 };
    }
  } catch (error) {
    logger.error({ err: error }, "contact inbox failed to load");
    return data({ view, list: EMPTY_PAGE, selected: null, missing: false, loadFailed: true }, { status: 503, headers: PRIVATE });
  }
  // Past the last page (the last message of a page was just deleted, an old link): the last page.
  if (list.total > 0 && view.page > list.pages) throw redirect(hrefOf({ ...view, page: list.pages }));
  const missing = Boolean(view.id && !selected);
  return data({ view, list, selected, missing, loadFailed: false }, { status: missing ? 404 : 200, headers: PRIVATE });
}

type ActionData = { intent: "status" | "delete" | "unknown"; ok: boolean; title: string; message: string; at: number };

const answer = (intent: ActionData["intent"], status: number, title: string, message: string) =>
  data<ActionData>({ intent, ok: status < 300, title, message, at: Date.now() }, { status });

export async function action({ request }: Route.ActionArgs) {
  await requirePermission(request, "contacts.manage");
  const form = await readForm(request);
  const intent = form.get("intent");
  const id = contactIdOf(form.get("id")) ?? 0;
  const db = await getDb();
  if (intent === "status") {
    try {
      await setContactStatus(db, id, form.get("status"));
      return answer(intent, 200, "contacts.updatedTitle", "contacts.updated");
    } catch (error) {
      if (error instanceof ValidationError) return answer(intent, 422, "contacts.errorTitle", "contacts.updateFailed");
      if (error instanceof NotFoundError) return answer(intent, 404, "contacts.errorTitle", "contacts.updateFailed");
      logger.error({ err: error }, "contact status update failed");
      return answer(intent, 500, "contacts.errorTitle", "contacts.updateFailed");
    }
  }
  if (intent === "delete") {
    try {
      await deleteContact(db, id);
      return answer(intent, 200, "contacts.deletedTitle", "contacts.deleted");
    } catch (error) {
      if (error instanceof NotFoundError) return answer(intent, 404, "contacts.errorTitle", "contacts.deleteFailed");
      logger.error({ err: error }, "contact deletion failed");
      return answer(intent, 500, "contacts.errorTitle", "contacts.deleteFailed");
    }
  }
  return answer("unknown", 400, "contacts.errorTitle", "contacts.updateFailed");
}

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "admin.contacts");

type Loaded = Route.ComponentProps["loaderData"];
type Summary = Loaded["list"]["items"][number];

/** back-office.md §4: new 'جديدة', read 'مقروءة', replied 'تم الرد', anything else 'غير محدد'. */
const STATUS_TONES: Record<string, string> = {
  new: "bg-red-100 text-red-900",
  read: "bg-sand-200 text-ink",
  replied: "bg-emerald-100 text-emerald-900",
};

function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = status in STATUS_TONES;
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-bold ${known ? STATUS_TONES[status] : "bg-sand-100 text-ink-soft"}`}
      data-testid="status-badge"
    >
      {t(known ? `contacts.status.${status}` : "contacts.status.unknown")}
    </span>
  );
}

function KindBadge({ kind }: { kind: string }) {
  const { t } = useTranslation();
  if (kind !== "article_proposal") return null;
  return (
    <span className="inline-block rounded-full bg-palm-600/10 px-2.5 py-0.5 text-xs font-bold text-palm-800" data-testid="kind-badge">
      {t("contacts.kind.article_proposal")}
    </span>
  );
}

/** An address for a mailto: URL that cannot smuggle in extra headers (a sender may type "a@b.c?bcc=…"). */
const mailtoAddress = (email: string) => email.split("@").map(encodeURIComponent).join("@");

/** back-office.md §2: reply by e-mail, the subject prefixed 'Re:'. */
const replyHref = (email: string, subject: string) => `mailto:${mailtoAddress(email)}?subject=${encodeURIComponent(`Re: ${subject}`)}`;

function Filters({ view, counts }: { view: View; counts: Loaded["list"]["counts"] }) {
  const { t, i18n } = useTranslation();
  const number = { format: (n: number) => formatNumber(i18n.language as Language, n) };
  return (
    <nav aria-label={t("contacts.filters")}>
      <ul className="flex flex-wrap gap-2">
        {CONTACT_FILTERS.map((f) => {
          const active = f === view.status;
          return (
            <li key={f}>
              <Link
                to={hrefOf({ status: f, page: 1 })}
                aria-current={active ? "page" : undefined}
                data-testid={`filter-${f}`}
                className={`inline-flex min-h-11 items-center gap-2 rounded-md border px-3 py-2 text-sm font-bold ${
                  active ? "border-desert-600 bg-desert-600 text-white" : "border-sand-300 bg-white text-ink hover:bg-sand-100"
                }`}
              >
                {t(`contacts.filter.${f}`)}
                <span
                  className={`rounded-full px-2 text-xs ${active ? "bg-white/20" : "bg-sand-100"}`}
                  data-testid={`filter-count-${f}`}
                  data-value={counts[f]}
                >
                  {number.format(counts[f])}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function MessageList({ view, list, selectedId, lang }: { view: View; list: Loaded["list"]; selectedId: number | null; lang: Language }) {
  const { t } = useTranslation();
  if (!list.items.length) {
    return (
      <p className="rounded-lg border border-sand-200 bg-white p-6 text-center text-ink-soft" data-testid="contacts-empty">
        {t("contacts.empty")}
      </p>
    );
  }
  return (
    <ul
      className="max-h-[600px] divide-y divide-sand-200 overflow-y-auto rounded-lg border border-sand-200 bg-white shadow-sm"
      aria-label={t("contacts.list")}
      data-testid="contact-list"
    >
      {list.items.map((m: Summary) => {
        const current = m.id === selectedId;
        return (
          <li key={m.id}>
            <Link
              to={hrefOf({ status: view.status, page: list.page, id: m.id })}
              aria-current={current ? "true" : undefined}
              data-testid="contact-item"
              data-id={m.id}
              data-status={m.status}
              className={`block space-y-1 border-s-4 px-4 py-3 hover:bg-sand-50 ${current ? "border-s-desert-600 bg-sand-100" : m.status === "new" ? "border-s-red-600" : "border-s-transparent"}`}
            >
              <span className="flex items-start justify-between gap-2">
                <span dir="auto" className={`min-w-0 truncate ${m.status === "new" ? "font-bold" : "font-semibold"}`}>
                  {m.name}
                </span>
                <StatusBadge status={m.status} />
              </span>
              <span dir="auto" className="block truncate text-sm font-bold">
                {m.subject}
              </span>
              <span dir="auto" className="block text-sm break-words text-ink-soft" data-testid="contact-preview">
                {m.preview}
              </span>
              <span className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-xs text-ink-soft">
                <span className="min-w-0 truncate" dir="ltr">
                  {m.email}
                </span>
                <time dateTime={m.created_at}>{formatDate(m.created_at, lang, "short")}</time>
              </span>
              <KindBadge kind={m.kind} />
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function Pager({ view, list }: { view: View; list: Loaded["list"] }) {
  const { t } = useTranslation();
  if (list.pages <= 1) return null;
  const link = "rounded-md border border-sand-300 bg-white px-3 py-2 font-bold hover:bg-sand-100";
  return (
    <nav aria-label={t("contacts.pages")} className="flex items-center justify-between gap-2 text-sm" data-testid="contacts-pager">
      {list.page > 1 ? (
        <Link to={hrefOf({ status: view.status, page: list.page - 1 })} rel="prev" className={link} data-testid="page-previous">
          {t("contacts.previous")}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-ink-soft" data-testid="page-of">
        {t("contacts.page", { page: list.page, pages: list.pages })}
      </span>
      {list.page < list.pages ? (
        <Link to={hrefOf({ status: view.status, page: list.page + 1 })} rel="next" className={link} data-testid="page-next">
          {t("contacts.next")}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

const button = "inline-flex min-h-11 items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-bold disabled:cursor-wait disabled:opacity-70";

function Detail({ message, view, lang }: { message: ContactDetail; view: View; lang: Language }) {
  const { t } = useTranslation();
  const toggle = useFetcher<ActionData>({ key: `contact-status-${message.id}` });
  const navigation = useNavigation();
  const toast = toggle.data ? { title: toggle.data.title, message: toggle.data.message, variant: toggle.data.ok ? ("success" as const) : undefined } : null;
  useAnswerToast(toast, toggle.data?.at);

  // Shown at once, before the server answers; the server's answer (and a failure) replaces it.
  const pending = toggle.formData?.get("status");
  const status = typeof pending === "string" ? pending : message.status;
  const next = status === "replied" ? "read" : "replied";
  const here = hrefOf({ ...view, id: message.id });
  const list = hrefOf({ status: view.status, page: view.page });

  // Without JavaScript the delete button is a link to ?confirm=delete; with it, the same question opens in place.
  const [asking, setAsking] = useState(false);
  const confirming = asking || Boolean(view.confirm);
  const cancelRef = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (asking) cancelRef.current?.focus();
  }, [asking]);
  const deleting = navigation.state === "submitting" && navigation.formData?.get("intent") === "delete";

  return (
    <article
      aria-labelledby="contact-subject"
      className="space-y-5 rounded-lg border border-sand-200 bg-white p-4 shadow-sm sm:p-6"
      data-testid="contact-detail"
      data-id={message.id}
      data-status={status}
    >
      <a href="#contact-list-heading" className="text-sm font-bold text-desert-700 underline lg:hidden">
        {t("contacts.backToList")}
      </a>
      <header className="space-y-2">
        <h2 id="contact-subject" dir="auto" className="text-xl font-bold break-words" data-testid="contact-subject">
          {message.subject}
        </h2>
        <KindBadge kind={message.kind} />
      </header>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
        <dt className="font-bold text-ink-soft">{t("contacts.from")}</dt>
        <dd data-testid="contact-name">
          <bdi>{message.name}</bdi>
        </dd>
        <dt className="font-bold text-ink-soft">{t("contacts.email")}</dt>
        <dd className="min-w-0">
          <a
            href={`mailto:${mailtoAddress(message.email)}`}
            dir="ltr"
            className="inline-block max-w-full truncate align-bottom text-desert-700 underline"
            data-testid="contact-email"
          >
            {message.email}
          </a>
        </dd>
        <dt className="font-bold text-ink-soft">{t("contacts.date")}</dt>
        <dd>
          <time dateTime={message.created_at}>{formatDate(message.created_at, lang, "dateTime")}</time>
        </dd>
        <dt className="font-bold text-ink-soft">{t("contacts.statusLabel")}</dt>
        <dd data-testid="contact-status">{t(`contacts.status.${status}`, { defaultValue: t("contacts.status.unknown") })}</dd>
        <dt className="font-bold text-ink-soft">{t("contacts.kindLabel")}</dt>
        <dd data-testid="contact-kind">{t(`contacts.kind.${message.kind}`)}</dd>
      </dl>
      <div dir="auto" className="rounded-md bg-sand-50 p-4 leading-relaxed break-words whitespace-pre-wrap" data-testid="contact-message">
        {message.message}
      </div>

      <div className="flex flex-wrap gap-2">
        <toggle.Form method="post" action={here}>
          <input type="hidden" name="intent" value="status" />
          <input type="hidden" name="id" value={message.id} />
          <input type="hidden" name="status" value={next} />
          <button
            type="submit"
            disabled={toggle.state !== "idle"}
            aria-busy={toggle.state !== "idle"}
            className={`${button} ${status === "replied" ? "border border-sand-300 bg-white hover:bg-sand-100" : "bg-palm-600 text-white hover:bg-palm-700"}`}
            data-testid="toggle-replied"
          >
            {t(status === "replied" ? "contacts.unmarkReplied" : "contacts.markReplied")}
          </button>
        </toggle.Form>
        <a href={replyHref(message.email, message.subject)} className={`${button} bg-desert-600 text-white hover:bg-desert-700`} data-testid="reply-by-email">
          <MailIcon width={18} height={18} aria-hidden="true" />
          {t("contacts.reply")}
        </a>
        {!confirming && (
          <Link
            to={hrefOf({ ...view, id: message.id, confirm: true })}
            onClick={(e) => {
              e.preventDefault();
              setAsking(true);
            }}
            className={`${button} border border-red-300 bg-white text-red-700 hover:bg-red-50`}
            data-testid="delete-contact"
          >
            {t("contacts.delete")}
          </Link>
        )}
      </div>

      {confirming && (
        <div
          role="alertdialog"
          aria-labelledby="confirm-delete-title"
          aria-describedby="confirm-delete-text"
          className="space-y-3 rounded-md border border-red-300 bg-red-50 p-4"
          data-testid="confirm-delete"
        >
          <h3 id="confirm-delete-title" className="font-bold text-red-900">
            {t("contacts.confirmDeleteTitle")}
          </h3>
          <p id="confirm-delete-text" className="text-sm text-red-900">
            {t("contacts.confirmDelete")}
          </p>
          <div className="flex flex-wrap gap-2">
            <Form method="post" action={list} replace>
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="id" value={message.id} />
              <button
                type="submit"
                disabled={deleting}
                aria-busy={deleting}
                className={`${button} bg-red-700 text-white hover:bg-red-800`}
                data-testid="confirm-delete-submit"
              >
                {t("contacts.delete")}
              </button>
            </Form>
            <Link
              ref={cancelRef}
              to={here}
              onClick={(e) => {
                if (view.confirm) return;
                e.preventDefault();
                setAsking(false);
              }}
              className={`${button} border border-sand-300 bg-white hover:bg-sand-100`}
              data-testid="confirm-delete-cancel"
            >
              {t("contacts.cancel")}
            </Link>
          </div>
        </div>
      )}
    </article>
  );
}

export default function ContactsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const location = useLocation();
  const { view, list, selected, missing, loadFailed } = loaderData;

  // Answers of the page's own forms (delete) and the load failure: a toast with JavaScript, a notice without.
  const result = actionData ? { title: actionData.title, message: actionData.message, variant: actionData.ok ? ("success" as const) : undefined } : null;
  useAnswerToast(result, actionData?.at);
  useAnswerToast(loadFailed ? { title: "contacts.errorTitle", message: "contacts.loadFailed" } : null, loadFailed ? location.key : null);

  return (
    <section className="space-y-5" data-testid="admin-contacts">
      <div>
        <h1 className="text-2xl font-bold">{t("admin.contacts")}</h1>
        <p className="mt-1 text-ink-soft">{t("contacts.intro")}</p>
      </div>

      {actionData && (
        <div className="[[data-hydrated]_&]:hidden">
          <Notice tone={actionData.ok ? "success" : "error"} testId="contacts-result">
            {t(actionData.message)}
          </Notice>
        </div>
      )}
      {loadFailed && (
        <Notice tone="error" testId="contacts-load-failed">
          <strong>{t("contacts.errorTitle")}</strong> — {t("contacts.loadFailed")}
        </Notice>
      )}

      <Filters view={view} counts={list.counts} />

      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-5 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className="min-w-0 space-y-3">
          <h2 id="contact-list-heading" className="sr-only">
            {t("contacts.list")}
          </h2>
          <MessageList view={view} list={list} selectedId={selected?.id ?? null} lang={lang} />
          <Pager view={view} list={list} />
        </div>
        <div className={`min-w-0 ${selected ? "order-first lg:order-none" : ""}`}>
          {selected ? (
            <Detail key={selected.id} message={selected} view={view} lang={lang} />
          ) : (
            <div className="space-y-3">
              {missing && (
                <Notice tone="error" testId="contact-missing">
                  {t("contacts.notFound")}
                </Notice>
              )}
              <p className="rounded-lg border border-dashed border-sand-300 bg-white p-8 text-center text-ink-soft" data-testid="contact-none-selected">
                {t("contacts.nothingSelected")}
              </p>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
