import { Form, Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { AUDIT_ACTIONS } from "#domain/audit.ts";
import { ALL_CONTENT_TYPES } from "#domain/content-types/index.ts";

const field = "h-10 rounded-md border border-sand-300 bg-white px-3 text-sm";

type FilterProps = { query: Record<string, string>; actors: { id: string; email: string }[] };

/** The filter, by person, action, type and dates (GET parameters: every view is a link, and the CSV's address). */
export function AuditFilter({ query, actors }: FilterProps) {
  const { t } = useTranslation();
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3" data-testid="audit-filter">
      <div className="flex flex-col gap-1">
        <label htmlFor="audit-actor" className="text-xs font-bold text-ink-soft">
          {t("audit.f.actor")}
        </label>
        <select id="audit-actor" name="actor" defaultValue={query.actor} className={field} data-testid="audit-actor">
          <option value="">{t("audit.all")}</option>
          {actors.map((a) => (
            <option key={a.id} value={a.id}>
              {a.email}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="audit-action" className="text-xs font-bold text-ink-soft">
          {t("audit.f.action")}
        </label>
        <select id="audit-action" name="action" defaultValue={query.action} className={field} data-testid="audit-action">
          <option value="">{t("audit.all")}</option>
          {AUDIT_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {t(`audit.actions.${a}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="audit-type" className="text-xs font-bold text-ink-soft">
          {t("audit.f.type")}
        </label>
        <select id="audit-type" name="type" defaultValue={query.type} className={field} data-testid="audit-type">
          <option value="">{t("audit.all")}</option>
          {ALL_CONTENT_TYPES.map((d) => (
            <option key={d.type} value={d.type}>
              {t(d.labels.title)}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="audit-from" className="text-xs font-bold text-ink-soft">
          {t("audit.f.from")}
        </label>
        <input id="audit-from" name="from" type="date" defaultValue={query.from} className={field} data-testid="audit-from" />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="audit-to" className="text-xs font-bold text-ink-soft">
          {t("audit.f.to")}
        </label>
        <input id="audit-to" name="to" type="date" defaultValue={query.to} className={field} data-testid="audit-to" />
      </div>
      {query.id && <input type="hidden" name="id" value={query.id} />}
      <button type="submit" className="h-10 rounded-md bg-desert-600 px-4 text-sm font-bold text-white hover:bg-desert-700" data-testid="audit-apply">
        {t("audit.apply")}
      </button>
      <Link to="/admin/audit" className="h-10 content-center text-sm underline">
        {t("audit.reset")}
      </Link>
    </Form>
  );
}
