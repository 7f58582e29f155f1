import { Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { CONTACT_FILTERS } from "#domain/contacts.ts";
import { formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { formatNumber } from "#domain/plural.ts";
import type { ContactPage } from "#server/content/contacts.server.ts";
import { KindBadge, StatusBadge } from "./contact-badges.tsx";
import { hrefOf, type ContactsView as View } from "./contacts-view.ts";

type Summary = ContactPage["items"][number];

/** The filters by status, each with its count. */
export function Filters({ view, counts }: { view: View; counts: ContactPage["counts"] }) {
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

export function MessageList({ view, list, selectedId, lang }: { view: View; list: ContactPage; selectedId: number | null; lang: Language }) {
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

export function Pager({ view, list }: { view: View; list: ContactPage }) {
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
