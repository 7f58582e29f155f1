import { data, redirect, useLocation } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/contacts";
import { Detail } from "#app/components/admin/contacts/contact-detail.tsx";
import { Filters, MessageList, Pager } from "#app/components/admin/contacts/contact-list.tsx";
import { hrefOf, type ContactsAnswer, type ContactsView } from "#app/components/admin/contacts/contacts-view.ts";
import { AdminError } from "#app/components/admin/guard.tsx";
import { Notice, useAnswerToast } from "#app/components/forms/notice.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import type { Language } from "#domain/language.ts";
import { getDb } from "#server/db/client.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { NotFoundError, ValidationError } from "#server/http/errors.server.ts";
import { formAction } from "#server/http/form-action.server.ts";
import { deleteContact, listContacts, openContact, setContactStatus, type ContactDetail, type ContactPage } from "#server/content/contacts.server.ts";
import { CONTACTS_PAGE_SIZE, contactIdOf, isContactFilter } from "#domain/contacts.ts";
import { requirePermission } from "#server/auth/session.server.ts";

/**
 * The contact inbox (back-office.md §2 "Contact inbox", §4 contact status, §5 "Contact deletion", §8).
 * Everything the screen shows is in its URL — ?status=new&page=2&id=17 — so it works as plain links and
 * forms without JavaScript; with it, the status toggle runs in a fetcher and answers come as toasts.
 */

function viewOf(url: URL): ContactsView & { id: number | null } {
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

type Intent = ContactsAnswer["intent"];

const answer = (intent: Intent, status: number, title: string, message: string) =>
  data<ContactsAnswer>({ intent, ok: status < 300, title, message, at: Date.now() } as ContactsAnswer, { status });

const intentOf = (form: FormData | null): Intent => {
  const intent = form?.get("intent");
  return intent === "status" || intent === "delete" ? intent : "unknown";
};

/** A body that cannot be read is answered as the forms' failure, with the toast of the change it was. */
const unreadable = (form: FormData | null) => ({
  intent: intentOf(form),
  title: "contacts.errorTitle",
  message: intentOf(form) === "delete" ? "contacts.deleteFailed" : "contacts.updateFailed",
  at: Date.now(),
});

export async function action({ request }: Route.ActionArgs) {
  await requirePermission(request, "contacts.manage");
  return formAction<ContactsAnswer>(request, { echo: unreadable }, async (form) => {
    const intent = intentOf(form);
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
  });
}

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "admin.contacts");

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
