import { data, Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/audit";
import { AuditFilter } from "#app/components/admin/audit/audit-filter.tsx";
import { AuditTable } from "#app/components/admin/audit/audit-table.tsx";
import { AdminError } from "#app/components/admin/guard.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { pageParam } from "#domain/query.ts";
import { getDb } from "#server/db/client.server.ts";
import { requireAdmin } from "#server/auth/session.server.ts";
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

export default function AuditPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { entries, more, page, query, invalid, actors } = loaderData;
  const search = (changes: Record<string, string>) => {
    const params = new URLSearchParams(Object.entries({ ...query, ...changes }).filter(([, v]) => v));
    return params.toString();
  };
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
      <AuditFilter query={query} actors={actors} />
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
        <AuditTable entries={entries} />
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
