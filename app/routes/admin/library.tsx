import { useEffect } from "react";
import { data, useFetcher, useNavigate, useSearchParams } from "react-router";
import type { Route } from "./+types/library";
import { AdminError } from "#app/components/admin/guard.tsx";
import { DetailsDialog } from "#app/components/admin/library/details-dialog.tsx";
import { DELETE_FETCHER, type LibraryAnswer } from "#app/components/admin/library/library-answer.ts";
import { LibraryPages, LibrarySearch } from "#app/components/admin/library/library-browse.tsx";
import { LibraryCard } from "#app/components/admin/library/library-card.tsx";
import { LibraryUpload } from "#app/components/admin/library/library-upload.tsx";
import { useToast } from "#app/components/ui/toast.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { useCount, useTranslation } from "#app/lib/i18n.ts";
import { asText } from "#domain/content-form.ts";
import type { Language } from "#domain/language.ts";
import { isLibraryFilter, LIBRARY_PAGE_SIZE, LIBRARY_QUERY_MAX, LIBRARY_TEXT_FIELDS, parseLibraryPatch, type LibraryFilter } from "#domain/library.ts";
import { pageParam } from "#domain/query.ts";
import { parseId } from "#domain/ids.ts";
import { requirePermission, userCan } from "#server/auth/session.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { BadRequestError, ForbiddenError, NotFoundError, ValidationError } from "#server/http/errors.server.ts";
import { formAction, formSuccess } from "#server/http/form-action.server.ts";
import {
  deleteLibraryFileAs,
  getLibraryFile,
  LIBRARY_DELETE_PERMISSION,
  listLibrary,
  updateLibraryFile,
  usageOf,
  withVideoThumbnails,
} from "#server/media/library.server.ts";
import { getStorage } from "#server/media/storage/index.server.ts";

/**
 * The media library (issue 28, decision 0120): every uploaded image, audio file and PDF, and the video library's
 * videos, with search (Arabic-aware), a type filter and pages; a file's details open in a dialog (`?file=ID`)
 * where its alt text, caption and credit in Arabic and French and its focal point are edited, where its uses
 * are listed, and from where it is deleted after a confirmation that names them. Files are uploaded into it by
 * tus, several at once, each with its progress.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "content.write");
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, LIBRARY_QUERY_MAX);
  const kindParam = url.searchParams.get("kind");
  const kind: LibraryFilter | null = isLibraryFilter(kindParam) ? kindParam : null;
  const page = pageParam(url, "page", 100_000);
  const db = await getDb();
  const result = await listLibrary(db, { q: q || undefined, kind, page, pageSize: LIBRARY_PAGE_SIZE });
  const fileParam = url.searchParams.get("file");
  const openId = fileParam === null ? null : parseId(fileParam);
  const open = openId === null ? null : await getLibraryFile(db, openId);
  return data(
    {
      ...result,
      items: await withVideoThumbnails(result.items),
      q,
      kind,
      open: open && { file: open, usage: await usageOf(db, open.url) },
      openMissing: openId !== null && !open,
      // The delete button is offered only to whom the action would let delete (deleteLibraryFileAs decides).
      canDelete: userCan(user, LIBRARY_DELETE_PERMISSION),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** Saves a file's texts and focal point, or deletes it (a file in use only when the confirmation says so). */
export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "content.write");
  return formAction<LibraryAnswer>(request, { limit: "form" }, async (form) => {
    const intent = asText(form.get("intent"));
    const id = parseId(form.get("id"));
    if (id === null || (intent !== "update" && intent !== "delete")) throw new BadRequestError("BAD_REQUEST", "Not a change of a library file.");
    const db = await getDb();
    if (intent === "delete") {
      const done = await deleteLibraryFileAs(db, user.profile, id, { force: form.get("force") === "1", storage: getStorage() });
      if (done.state === "forbidden") throw new ForbiddenError("library.deleteNeedsPermission", "FORBIDDEN");
      if (done.state === "not-found") throw new NotFoundError("library.notFound");
      if (done.state === "in-use") return data<LibraryAnswer>({ ok: false, formError: "IN_USE", intent, usage: done.usage }, { status: 409 });
      return formSuccess<LibraryAnswer>({ intent });
    }
    const text = (name: string) => asText(form.get(name));
    const patch = Object.fromEntries(LIBRARY_TEXT_FIELDS.map((field) => [field, { ar: text(`${field}_ar`), fr: text(`${field}_fr`) }]));
    const checked = parseLibraryPatch({ ...patch, focal: { x: Number(text("focal_x")), y: Number(text("focal_y")) } });
    if (!checked.ok) throw new ValidationError("library.v.invalid", checked.fields, { status: 400, code: "INVALID" });
    if (!(await updateLibraryFile(db, id, checked.value))) throw new NotFoundError("library.notFound");
    return formSuccess<LibraryAnswer>({ intent });
  });
}

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "library.title");

export default function MediaLibrary({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const count = useCount();
  const lang = i18n.language as Language;
  const [params] = useSearchParams();
  const { items, total, page, pageSize, q, kind, open } = loaderData;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  useDeletedFile(loaderData.openMissing);

  /** This page's address with some parameters changed (null removes one); the open file is closed unless kept. */
  const href = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    next.delete("file");
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === "") next.delete(name);
      else next.set(name, value);
    }
    const query = next.toString();
    return query ? `?${query}` : "?";
  };

  return (
    <section className="space-y-5" data-testid="admin-library">
      <div>
        <h1 className="text-2xl font-bold">{t("library.title")}</h1>
        <p className="mt-1 text-ink-soft">{t("library.intro")}</p>
      </div>

      <LibraryUpload />
      <LibrarySearch q={q} kind={kind} href={href} />

      <p className="text-sm text-ink-soft" role="status" data-testid="library-total">
        {count("library.results", total)}
      </p>

      {items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-sand-300 bg-white px-4 py-10 text-center text-ink-soft" data-testid="library-empty">
          {q ? t("library.emptySearch") : t("library.empty")}
        </p>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-6" data-testid="library-grid">
          {items.map((item) => (
            <li key={`${item.kind}:${item.url}`}>
              <LibraryCard item={item} to={item.kind === "video" ? (item.href ?? "/admin/videos") : href({ file: String(item.id) })} />
            </li>
          ))}
        </ul>
      )}

      <LibraryPages page={page} pages={pages} href={href} />

      <DetailsDialog key={open?.file.id ?? "none"} open={open} closeTo={href({})} lang={lang} canDelete={loaderData.canDelete} />
    </section>
  );
}

/**
 * The dialog's delete (one fetcher by key): the dialog goes with the file, the page says it is done. A file
 * asked for by address that is not there (deleted meanwhile) is said too.
 */
function useDeletedFile(openMissing: boolean) {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const removed = useFetcher<LibraryAnswer>({ key: DELETE_FETCHER });
  const justDeleted = removed.data?.ok === true;

  useEffect(() => {
    if (openMissing && !justDeleted) toast({ title: t("library.deleteFailedTitle"), description: t("library.notFound"), variant: "destructive" });
  }, [openMissing, justDeleted, t, toast]);

  useEffect(() => {
    if (removed.state !== "idle" || !removed.data?.ok) return;
    toast({ title: t("library.deletedTitle"), description: t("library.deleted"), variant: "success" });
    const next = new URLSearchParams(window.location.search);
    next.delete("file");
    void navigate(`?${next.toString()}`, { replace: true, preventScrollReset: true });
  }, [removed.state, removed.data, navigate, t, toast]);
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
