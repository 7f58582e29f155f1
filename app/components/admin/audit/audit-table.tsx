import { useTranslation } from "#app/lib/i18n.ts";
import { CONTENT_TYPE_DEFINITIONS, type ContentType } from "#domain/content-types/index.ts";
import { formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import type { AuditEntry } from "#server/content/audit.server.ts";

/** The entries, newest first; the table scrolls sideways on a phone. */
export function AuditTable({ entries }: { entries: AuditEntry[] }) {
  const { t } = useTranslation();
  return (
    // Scrolls sideways on a phone: reachable with the keyboard, named for screen readers.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- axe's scrollable-region-focusable: a region that scrolls is reached by keyboard
    <div role="region" aria-label={t("audit.title")} tabIndex={0} className="overflow-x-auto rounded-lg border border-sand-200 bg-white shadow-sm">
      <table className="w-full text-start text-sm">
        <caption className="sr-only">{t("audit.title")}</caption>
        <thead className="bg-sand-50 text-ink-soft">
          <tr>
            <th scope="col" className="p-3 text-start">
              {t("audit.f.at")}
            </th>
            <th scope="col" className="p-3 text-start">
              {t("audit.f.actor")}
            </th>
            <th scope="col" className="p-3 text-start">
              {t("audit.f.action")}
            </th>
            <th scope="col" className="p-3 text-start">
              {t("audit.f.type")}
            </th>
            <th scope="col" className="p-3 text-start">
              {t("audit.f.items")}
            </th>
            <th scope="col" className="p-3 text-start">
              {t("audit.f.request")}
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <AuditRow key={e.entry_id} entry={e} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AuditRow({ entry: e }: { entry: AuditEntry }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const typeLabel = (type: string | null) =>
    type && type in CONTENT_TYPE_DEFINITIONS ? t(CONTENT_TYPE_DEFINITIONS[type as ContentType].labels.title) : (type ?? "—");
  const details = e.details as Record<string, unknown>;
  const bulk = typeof details.bulk_action === "string" ? details.bulk_action : null;
  const subject = typeof details.email === "string" ? details.email : null;
  return (
    <tr className="border-t border-sand-100 align-top" data-testid="audit-row" data-action={e.action} data-type={e.type ?? ""}>
      <td className="p-3 whitespace-nowrap">
        <time dateTime={e.at}>{formatDate(e.at, lang, "dateTime")}</time>
      </td>
      <td className="p-3" dir="ltr">
        {e.actor_email || e.actor || "—"}
      </td>
      <td className="p-3" data-testid="audit-row-action">
        {t(`audit.actions.${e.action}`, { defaultValue: e.action })}
        {bulk && <span className="block text-xs text-ink-soft">{t(`newsroom.bulk.actions.${bulk}`, { defaultValue: bulk })}</span>}
        {subject && (
          <span className="block text-xs text-ink-soft" dir="ltr">
            {subject}
          </span>
        )}
      </td>
      <td className="p-3">{typeLabel(e.type)}</td>
      <td className="p-3" data-testid="audit-row-ids">
        {e.ids.length > 5 ? t("audit.manyItems", { n: e.ids.length, first: e.ids.slice(0, 3).join(", ") }) : e.ids.join(", ") || "—"}
      </td>
      <td className="p-3 font-mono text-xs" dir="ltr">
        {e.request_id ?? "—"}
      </td>
    </tr>
  );
}
