import { data, Form, Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/authors";
import { AdminError } from "#app/components/admin/guard.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { AUTHORS_PER_PAGE, authorName } from "#domain/authors.ts";
import type { Language } from "#domain/language.ts";
import { formatNumber } from "#domain/format.ts";
import { pageParam } from "#domain/query.ts";
import { textProps } from "#domain/localized.ts";
import { getDb } from "#server/db/client.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { listAuthors } from "#server/content/authors.server.ts";

/**
 * The author profiles (issue 29, decision 0121): every byline, searchable by name in any language, each with
 * its linked account and how many items it signs; a profile opens in its editor (./author-editor.tsx).
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "content.write");
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const page = pageParam(url, "page", 100_000);
  const result = await listAuthors(await getDb(), { q: q || undefined, page });
  return data({ ...result, q, done: url.searchParams.get("done") === "deleted" ? "deleted" : null }, { headers: { "Cache-Control": "private, no-store" } });
}

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "admin.authors");

export default function AuthorsPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { authors, total, page, q, done } = loaderData;
  const pages = Math.max(1, Math.ceil(total / AUTHORS_PER_PAGE));
  const hrefOf = (p: number) => `?${new URLSearchParams({ ...(q ? { q } : {}), ...(p > 1 ? { page: String(p) } : {}) })}`;
  return (
    <section data-testid="admin-authors" className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">{t("admin.authors")}</h1>
          <p className="mt-1 text-ink-soft">{t("authors.intro")}</p>
        </div>
        <Link to="/admin/authors/new" className="rounded-md bg-desert-600 px-4 py-2 text-sm font-bold text-white hover:bg-desert-700" data-testid="author-new">
          {t("authors.add")}
        </Link>
      </div>
      {done && (
        <p role="status" className="rounded-md border border-palm-600 bg-emerald-50 px-4 py-2 text-sm" data-testid="authors-result">
          {t("authors.deleted")}
        </p>
      )}
      <Form method="get" role="search" className="flex max-w-lg gap-2">
        <label htmlFor="authors-q" className="sr-only">
          {t("authors.search")}
        </label>
        <input
          id="authors-q"
          name="q"
          type="search"
          defaultValue={q}
          maxLength={100}
          dir="auto"
          placeholder={t("authors.search")}
          className="h-11 min-w-0 flex-1 rounded-md border border-sand-300 bg-white px-3"
          data-testid="authors-q"
        />
        <button type="submit" className="rounded-md border border-sand-300 px-4 text-sm font-bold hover:bg-sand-100">
          {t("authors.searchSubmit")}
        </button>
      </Form>
      {authors.length === 0 ? (
        <p className="rounded-lg border border-dashed border-sand-300 bg-white p-6 text-center text-ink-soft" data-testid="authors-empty">
          {t("authors.empty")}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-sand-200 bg-white shadow-sm">
          <table className="w-full text-start text-sm">
            <thead className="bg-sand-50 text-ink-soft">
              <tr>
                <th scope="col" className="p-3 text-start">
                  {t("authors.f.name")}
                </th>
                <th scope="col" className="p-3 text-start">
                  {t("authors.f.slug")}
                </th>
                <th scope="col" className="p-3 text-start">
                  {t("authors.f.account")}
                </th>
                <th scope="col" className="p-3 text-start">
                  {t("authors.items")}
                </th>
              </tr>
            </thead>
            <tbody>
              {authors.map((a) => {
                const name = authorName(lang, a);
                return (
                  <tr key={a.id} className="border-t border-sand-100" data-testid="author-row" data-slug={a.slug}>
                    <td className="p-3">
                      <div className="flex items-center gap-3">
                        {a.photo_url ? (
                          <img src={a.photo_url} alt="" width={40} height={40} className="h-10 w-10 shrink-0 rounded-full object-cover" />
                        ) : (
                          <span aria-hidden="true" className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-sand-100 font-bold">
                            {a.name.slice(0, 1)}
                          </span>
                        )}
                        <Link to={`/admin/authors/${a.id}`} className="font-bold hover:underline" {...textProps(lang, name)} data-testid="author-edit">
                          {name}
                        </Link>
                      </div>
                    </td>
                    <td className="p-3">
                      <a href={a.url} className="text-ink-soft hover:underline" dir="auto" target="_blank" rel="noreferrer">
                        {a.slug}
                      </a>
                    </td>
                    <td className="p-3 text-ink-soft" dir={a.user_email ? "ltr" : undefined}>
                      {a.user_email ?? "—"}
                    </td>
                    <td className="p-3" data-testid="author-items">
                      {formatNumber(lang, a.item_count)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <nav aria-label={t("authors.pages")} className="flex items-center justify-between">
          {page > 1 ? (
            <Link to={hrefOf(page - 1)} rel="prev" className="font-bold hover:underline">
              {t("authors.previous")}
            </Link>
          ) : (
            <span />
          )}
          <span className="text-sm text-ink-soft">{t("authors.pageOf", { page, pages })}</span>
          {page < pages ? (
            <Link to={hrefOf(page + 1)} rel="next" className="font-bold hover:underline">
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
