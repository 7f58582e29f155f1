import { useEffect } from "react";
import { data, Link, redirect } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/content-editor";
import { AdminError } from "#app/components/admin/guard.tsx";
import { ContentForm } from "#app/components/admin/content-form.tsx";
import { ActionNotices, useNewsroomFlash } from "#app/components/admin/flash.tsx";
import { useToast } from "#app/components/ui/toast.tsx";
import { Breadcrumbs } from "#app/components/ui/breadcrumbs.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { contentTypeOfUrl, initialValues, type FormValues } from "#domain/content-form.ts";
import { contentTypeBySegment, type ContentTypeDefinition } from "#domain/content-types/index.ts";
import { fieldsOf, formErrorOf, type FormFailure } from "#domain/form-answer.ts";
import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { formAction } from "#server/http/form-action.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { can } from "#server/auth/permissions.server.ts";
import { getForStaff, listCategoryOptions, MAX_CONTENT_FORM_BYTES } from "#server/content/newsroom.server.ts";
import { saveFromForm } from "#server/content/newsroom-form.server.ts";
import { flashCookie, takeFlash } from "#server/content/newsroom-flash.server.ts";

/**
 * One editor for every content type (back-office.md §2 and §5): /admin/{segment}/new and /admin/{segment}/:id.
 * The form comes from the type's definition; a save goes back to the list with its toast, a refused one
 * shows the form again as it was typed, with the messages under the fields.
 */

const notFound = () => data(null, { status: 404, statusText: "Not Found" });

function typeOf(request: Request): ContentTypeDefinition {
  const def = contentTypeOfUrl(request.url);
  if (!def) throw notFound();
  return def;
}

/** The item id of /admin/{segment}/:id, null for /new; a malformed id is a 404. */
function idOf(params: { id?: string }): number | null {
  if (params.id === undefined) return null;
  const id = Number(params.id);
  if (!/^\d{1,12}$/.test(params.id) || !Number.isSafeInteger(id) || id < 1) throw notFound();
  return id;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const def = typeOf(request);
  const user = await requirePermission(request, def.permissions.write);
  const id = idOf(params);
  const db = await getDb();
  const [item, categories] = await Promise.all([
    id === null ? null : getForStaff(db, def.type, id),
    def.fields.some((f) => f.kind === "category") ? listCategoryOptions(db) : [],
  ]);
  if (id !== null && !item) throw notFound();
  // A restored revision lands here with its toast.
  const { flash, headers } = takeFlash(request);
  return data(
    {
      flash,
      segment: def.segment,
      item: item ? { id: item.id, title: item.title, updatedAt: item.updated_at, url: item.url, status: item.status } : null,
      values: initialValues(def, item),
      categories,
      origin: getConfig().publicUrl,
      canUploadVideo: can(user.profile, "videos.manage"),
    },
    { headers: { ...headers, "Cache-Control": "private, no-store" } },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders;

/**
 * A refused save (domain/form-answer.ts): the messages under the fields, what was typed (none when the body
 * could not be read), and for a conflict the version saved since.
 */
type Refusal = FormFailure<string, "BODY_TOO_LARGE" | "BAD_REQUEST" | "INVALID" | "NOT_FOUND" | "CONFLICT" | "FAILED"> & {
  conflict?: { updatedAt: string; title: string };
};

/** saveFromForm's refusals by status. */
const SAVE_CODES = { 400: "INVALID", 404: "NOT_FOUND", 409: "CONFLICT", 500: "FAILED" } as const;

/** Why the save failed when it is not the input (a translation key): the toast's text and the notice. */
const SAVE_FAILURES: Record<string, string> = {
  BODY_TOO_LARGE: "newsroom.ui.tooLarge",
  BAD_REQUEST: "newsroom.ui.badRequest",
  NOT_FOUND: "newsroom.ui.notFound",
  FAILED: "newsroom.ui.saveFailedDetail",
};

export async function action({ request, params }: Route.ActionArgs) {
  const def = typeOf(request);
  const user = await requirePermission(request, def.permissions.write);
  const id = idOf(params);
  return formAction<Refusal>(request, { limit: MAX_CONTENT_FORM_BYTES }, async (form) => {
    const outcome = await saveFromForm(await getDb(), def, form, { id: user.id, email: user.email }, id);
    if (!outcome.ok) {
      const refusal: Refusal = { ok: false, formError: SAVE_CODES[outcome.status], fields: outcome.errors, values: outcome.values };
      if (outcome.conflict) refusal.conflict = outcome.conflict;
      return data(refusal, { status: outcome.status });
    }
    return redirect(`/admin/${def.segment}`, {
      headers: { "Set-Cookie": flashCookie({ kind: id === null ? "created" : "updated", type: def.type, imageFailed: outcome.imageFailed ?? undefined }) },
    });
  });
}

export const meta: Route.MetaFunction = ({ matches, data }) => authMeta(matches, contentTypeBySegment(data?.segment)?.labels.title ?? "admin.dashboard");

/** The failure toasts of §8: 'فشل إنشاء الخبر' / 'فشل تحديث الخبر' with why, once per answer. */
function useRefusalToast(def: ContentTypeDefinition, editing: boolean, refusal: Refusal | undefined) {
  const toast = useToast();
  const { t } = useTranslation();
  useEffect(() => {
    if (!refusal) return;
    const title = t(editing ? def.labels.updateFailed : def.labels.createFailed);
    const failure = refusal.formError && SAVE_FAILURES[refusal.formError];
    const description = refusal.conflict ? t("newsroom.ui.conflictTitle") : t(failure || "newsroom.ui.checkFields");
    toast({ title, description, variant: "destructive" });
  }, [refusal, def, editing, t, toast]);
}

export default function ContentEditorPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const def = contentTypeBySegment(loaderData.segment)!;
  const { item } = loaderData;
  useRefusalToast(def, item !== null, actionData);
  useNewsroomFlash(loaderData.flash);
  // A body the server could not read comes back without values: the form keeps the item's.
  const values = actionData?.values && Object.keys(actionData.values).length ? (actionData.values as FormValues) : loaderData.values;
  const code = formErrorOf(actionData);
  const failure = code && SAVE_FAILURES[code];

  return (
    <section data-testid="content-editor" data-type={def.type} data-mode={item ? "edit" : "create"} className="space-y-5">
      <div className="space-y-2">
        <Breadcrumbs
          className="text-sm text-ink-soft"
          steps={[
            <Link key="list" to={`/admin/${def.segment}`} className="hover:underline" data-testid="back-to-list">
              {t(def.labels.title)}
            </Link>,
          ]}
        />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-bold">{item ? t("newsroom.ui.editTitle", { title: item.title }) : t(`newsroom.ui.new.${def.type}`)}</h1>
          {item && (
            <div className="flex flex-wrap gap-2 text-sm">
              <Link
                to={`/admin/${def.segment}/${item.id}/preview`}
                target="_blank"
                className="rounded-md border border-sand-300 bg-white px-3 py-1.5 font-bold hover:bg-sand-100"
                data-testid="preview-link"
              >
                {t("newsroom.ui.preview")}
              </Link>
              <Link
                to={`/admin/${def.segment}/${item.id}/revisions`}
                className="rounded-md border border-sand-300 bg-white px-3 py-1.5 font-bold hover:bg-sand-100"
                data-testid="revisions-link"
              >
                {t("newsroom.ui.revisions")}
              </Link>
            </div>
          )}
        </div>
      </div>
      <ActionNotices
        flash={loaderData.flash}
        failure={failure ? { title: t(item ? def.labels.updateFailed : def.labels.createFailed), message: t(failure) } : null}
        testId="save-failure"
      />
      <ContentForm
        def={def}
        item={item ? { id: item.id, updatedAt: item.updatedAt } : null}
        values={values}
        serverErrors={fieldsOf(actionData)}
        categories={loaderData.categories}
        origin={loaderData.origin}
        conflict={actionData?.conflict ?? null}
        canUploadVideo={loaderData.canUploadVideo}
      />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
