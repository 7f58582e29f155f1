import { data, Form, Link, redirect, useNavigation } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/content-revisions";
import { AdminError } from "#app/components/admin/guard.tsx";
import { StatusBadge } from "#app/components/admin/content-table.tsx";
import { Breadcrumbs } from "#app/components/ui/breadcrumbs.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { asText, contentTypeOfUrl } from "#domain/content-form.ts";
import { contentTypeBySegment, EDITOR_STATUSES, type ContentTypeDefinition, type EditorStatus } from "#domain/content-types/index.ts";
import { formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { getDb } from "#server/db/client.server.ts";
import { richTextToPlainText } from "#server/content/rich-text.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { getForStaff, getRevision, listRevisions, restoreRevision } from "#server/content/newsroom.server.ts";
import { BadRequestError, ValidationError } from "#server/http/errors.server.ts";
import { failedWhile, formAction } from "#server/http/form-action.server.ts";
import { formErrorOf, type FormAnswer } from "#domain/form-answer.ts";
import { Notice } from "#app/components/forms/notice.tsx";
import { flashCookie } from "#server/content/newsroom-flash.server.ts";

/**
 * An item's revisions (/admin/{segment}/:id/revisions): every save kept, newest first; `?rev=N` shows one
 * as it was saved, and restoring it saves it again as the current version (itself a new revision).
 */

const notFound = () => data(null, { status: 404, statusText: "Not Found" });

function typeOf(request: Request): ContentTypeDefinition {
  const def = contentTypeOfUrl(request.url);
  if (!def) throw notFound();
  return def;
}

const positive = (value: unknown): number | null => {
  const n = Number(value);
  return typeof value === "string" && /^\d{1,12}$/.test(value) && Number.isSafeInteger(n) && n > 0 ? n : null;
};

/** A saved value as the page shows it: rich text as its words, everything else as text. */
function shownValue(def: ContentTypeDefinition, name: string, value: unknown): string {
  const field = def.fields.find((f) => f.name === name);
  if (field?.kind === "boolean") return value === true ? "✓" : "✗";
  return field?.kind === "richtext" ? richTextToPlainText(asText(value)) : asText(value);
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const def = typeOf(request);
  await requirePermission(request, def.permissions.write);
  const id = positive(params.id);
  if (id === null) throw notFound();
  const db = await getDb();
  const item = await getForStaff(db, def.type, id);
  if (!item) throw notFound();
  const revisions = await listRevisions(db, def.type, id);
  const revId = positive(new URL(request.url).searchParams.get("rev"));
  const found = revId === null ? null : await getRevision(db, def.type, id, revId);
  const shown = found
    ? {
        id: found.id,
        createdAt: found.created_at,
        authorName: found.author_name,
        status: (EDITOR_STATUSES as readonly string[]).includes(String(found.data.status)) ? (found.data.status as EditorStatus) : "draft",
        fields: def.fields.map((f) => ({ name: f.name, label: f.label, value: shownValue(def, f.name, found.data[f.name]) })),
        publishDate: typeof found.data.publish_date === "string" ? found.data.publish_date : null,
        slug: typeof found.data.page_slug === "string" ? found.data.page_slug : "",
      }
    : null;
  return data(
    { segment: def.segment, item: { id: item.id, title: item.title }, revisions, shown, latestId: revisions[0]?.id ?? null },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** The answer to a refused restore (domain/form-answer.ts); a restore that went through goes to the editor. */
type RestoreAnswer = FormAnswer<never, "BODY_TOO_LARGE" | "BAD_REQUEST" | "NOT_FOUND" | "INVALID" | "FAILED">;

/** What the page says for each code (translation keys). */
const RESTORE_FAILURES: Record<string, string> = {
  BODY_TOO_LARGE: "newsroom.ui.badRequest",
  BAD_REQUEST: "newsroom.ui.badRequest",
  NOT_FOUND: "newsroom.ui.notFound",
  INVALID: "newsroom.ui.restoreInvalid",
  FAILED: "newsroom.ui.saveFailedDetail",
};

export async function action({ request, params }: Route.ActionArgs) {
  const def = typeOf(request);
  const user = await requirePermission(request, def.permissions.write);
  // A restore is a few hidden fields: the account forms' limit is plenty.
  return formAction<RestoreAnswer>(request, { limit: "account" }, async (form) => {
    const id = positive(params.id);
    const revId = positive(form.get("rev"));
    if (form.get("intent") !== "restore" || id === null || revId === null) throw new BadRequestError("BAD_REQUEST", "Not a restore of a revision.");
    try {
      await restoreRevision(await getDb(), def.type, id, revId, { id: user.id, email: user.email });
    } catch (error) {
      // An old version may not pass today's rules (a category since removed, a stricter field): 400 here.
      if (error instanceof ValidationError) throw new BadRequestError("INVALID", error.message, { cause: error });
      throw failedWhile("restore failed", error, { type: def.type, id, revId });
    }
    return redirect(`/admin/${def.segment}/${id}`, { headers: { "Set-Cookie": flashCookie({ kind: "restored", type: def.type }) } });
  });
}

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "newsroom.ui.revisions");

export default function RevisionsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const def = contentTypeBySegment(loaderData.segment)!;
  const { item, revisions, shown, latestId } = loaderData;
  const navigation = useNavigation();
  const restoring = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const editHref = `/admin/${def.segment}/${item.id}`;
  const code = formErrorOf(actionData);
  const restoreFailure = code ? (RESTORE_FAILURES[code] ?? RESTORE_FAILURES.FAILED) : null;

  return (
    <section className="space-y-5" data-testid="content-revisions">
      <div className="space-y-2">
        <Breadcrumbs
          className="text-sm text-ink-soft"
          steps={[
            <Link key="list" to={`/admin/${def.segment}`} className="hover:underline">
              {t(def.labels.title)}
            </Link>,
            <Link key="item" to={editHref} className="hover:underline" data-testid="back-to-editor">
              {item.title}
            </Link>,
          ]}
        />
        <h1 className="text-2xl font-bold">{t("newsroom.ui.revisionsTitle", { title: item.title })}</h1>
      </div>
      {restoreFailure && (
        <Notice tone="error" testId="restore-failure">
          {t(restoreFailure)}
        </Notice>
      )}
      <div className="grid gap-5 lg:grid-cols-[20rem_minmax(0,1fr)]">
        <ol className="space-y-2" data-testid="revision-list">
          {revisions.length === 0 && <li className="text-ink-soft">{t("newsroom.ui.noRevisions")}</li>}
          {revisions.map((r) => {
            const active = shown?.id === r.id;
            return (
              <li key={r.id}>
                <Link
                  to={`?rev=${r.id}`}
                  aria-current={active ? "true" : undefined}
                  className={`block rounded-lg border px-3 py-2 text-sm ${active ? "border-desert-600 bg-white shadow-sm" : "border-sand-200 bg-white hover:bg-sand-50"}`}
                  data-testid="revision"
                >
                  <span className="block font-bold">{formatDate(r.created_at, lang, "dateTime")}</span>
                  <span className="block text-ink-soft">
                    {r.author_name ?? t("admin.notSet")}
                    {r.id === latestId && <> · {t("newsroom.ui.currentVersion")}</>}
                  </span>
                  <span className="mt-1 block truncate">{r.title}</span>
                </Link>
              </li>
            );
          })}
        </ol>
        {shown ? (
          <article className="space-y-4 rounded-lg border border-sand-200 bg-white p-4 shadow-sm sm:p-6" data-testid="revision-view">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm text-ink-soft">
                {t("newsroom.ui.revisionBy", { date: formatDate(shown.createdAt, lang, "dateTime"), name: shown.authorName ?? t("admin.notSet") })}
              </p>
              <StatusBadge status={shown.status} />
            </div>
            <dl className="space-y-3">
              {shown.fields.map((f) => (
                <div key={f.name}>
                  <dt className="text-sm font-bold text-ink-soft">{t(f.label)}</dt>
                  <dd className="whitespace-pre-line break-words" data-testid={`revision-${f.name}`}>
                    {f.value || <span className="text-ink-soft">{t("admin.notSet")}</span>}
                  </dd>
                </div>
              ))}
              <div>
                <dt className="text-sm font-bold text-ink-soft">{t("newsroom.ui.publishDate")}</dt>
                <dd>{shown.publishDate ? formatDate(shown.publishDate, lang, "dateTime") : t("admin.notSet")}</dd>
              </div>
              <div>
                <dt className="text-sm font-bold text-ink-soft">{t("newsroom.f.slug")}</dt>
                <dd dir="auto">{shown.slug}</dd>
              </div>
            </dl>
            {shown.id !== latestId && (
              <Form method="post" className="border-t border-sand-100 pt-4">
                <input type="hidden" name="intent" value="restore" />
                <input type="hidden" name="rev" value={shown.id} />
                <button
                  type="submit"
                  disabled={restoring}
                  className="rounded-md bg-desert-600 px-4 py-2 font-bold text-white hover:bg-desert-700 disabled:opacity-70"
                  data-testid="restore"
                >
                  {restoring ? t("admin.saving") : t("newsroom.ui.restore")}
                </button>
              </Form>
            )}
          </article>
        ) : (
          <p className="rounded-lg border border-dashed border-sand-300 bg-white px-4 py-10 text-center text-ink-soft">{t("newsroom.ui.pickRevision")}</p>
        )}
      </div>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
