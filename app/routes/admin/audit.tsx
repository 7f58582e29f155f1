import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/audit";
import { AdminError } from "#app/components/admin/guard.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { ALL_CONTENT_TYPES, CONTENT_TYPE_DEFINITIONS, type ContentType } from "#domain/content-types/index.ts";
import { formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { pageParam } from "#domain/query.ts";
import { getDb } from "#server/db/client.server.ts";
import { requireAdmin } from "#server/auth/session.server.ts";
import { AUDIT_ACTIONS } from "#domain/audit.ts";
import { AUDIT_PAGE_SIZE, auditActors, auditFilterOf, listAudit } from "#server/content/audit.server.ts";

/**
 * The audit log (issue 40, decision 0140), administrators only: who published, unpublished, scheduled, deleted,
 * restored, corrected or bulk-changed what, permission changes, sign-in lock-outs and newsletter sends, newest first,
 * filtered by person, action, type and dates; the same filter exported as CSV (/api/admin/audit.csv).
 */
const FILTER_KEYS = ["actor", "action", "type", "id", "from", "to"] as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const query = Object.fromEntries(FILTER_KEYS.map((k) => [k, (url.searchParams.get(k) ?? "").trim().slice(0, 200)]));
  const { filter, invalid } = auditFilterOf(query);
  const page = pageParam(url, "page", 10_000);
  const db = await getDb();
  const [{ entries, more }, actors] = await Promise.all([
    listAudit(db, filter, { limit: AUDIT_PAGE_SIZE, offset: (page - 1) * AUDIT_PAGE_SIZE }),
    auditActors(db),
  ]);
  return data({ entries, more, page, query, invalid, actors }, { headers: { "Cache-Control": "private, no-store" } });
}

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "audit.title");

const field = "h-10 rounded-md border border-sand-300 bg-white px-3 text-sm";

export default function AuditPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { entries, more, page, query, invalid, actors } = loaderData;
  const search = (changes: Record<string, string>) => {
    const params = new URLSearchParams(Object.entries({ ...query, ...changes }).filter(([, v]) => v));
    return params.toString();
  };
  const typeLabel = (type: string | null) =>
    type && type in CONTENT_TYPE_DEFINITIONS ? t(CONTENT_TYPE_DEFINITIONS[type as ContentType].labels.title) : (type ?? "—");
  return (
    <section data-testid="admin-audit" className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">{t("audit.title")}</h1>
          <p className="mt-1 text-ink-soft">{t("audit.intro")}</p>
        </div>
        <a
          href={`/api/admin/audit.csv?${search({})}`}
          className="rounded-md border border-sand-300 px-4 py-2 text-sm font-bold hover:bg-sand-100"
          data-testid="audit-csv"
          download
        >
          {t("audit.csv")}
        </a>
      </div>
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
      {invalid.length > 0 && (
        <p role="alert" className="text-sm font-bold text-red-800" data-testid="audit-invalid">
          {t("audit.invalid")}
        </p>
      )}
      {entries.length === 0 ? (
        <p className="rounded-lg border border-dashed border-sand-300 bg-white p-6 text-center text-ink-soft" data-testid="audit-empty">
          {t("audit.empty")}
        </p>
      ) : (
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
              {entries.map((e) => {
                const details = e.details as Record<string, unknown>;
                const bulk = typeof details.bulk_action === "string" ? details.bulk_action : null;
                const subject = typeof details.email === "string" ? details.email : null;
                return (
                  <tr key={e.entry_id} className="border-t border-sand-100 align-top" data-testid="audit-row" data-action={e.action} data-type={e.type ?? ""}>
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
              })}
            </tbody>
          </table>
        </div>
      )}
      {(page > 1 || more) && (
        <nav aria-label={t("audit.pages")} className="flex items-center justify-between">
          {page > 1 ? (
            <Link to={`?${search({ page: String(page - 1) })}`} rel="prev" className="font-bold hover:underline">
              {t("authors.previous")}
            </Link>
          ) : (
            <span />
          )}
          {more ? (
            <Link to={`?${search({ page: String(page + 1) })}`} rel="next" className="font-bold hover:underline">
              {t("authors.next")}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
