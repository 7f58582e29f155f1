import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type MouseEvent } from "react";
import { data, Form, Link, useFetcher, useNavigate, useRevalidator, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/library";
import { AdminError } from "#app/components/admin/guard.tsx";
import { LibraryThumbnail } from "#app/components/admin/library-thumbnail.tsx";
import { DialogHeader, ModalDialog } from "#app/components/admin/modal-dialog.tsx";
import { UploadProgress } from "#app/components/admin/upload-progress.tsx";
import { uploadFailureText, useUpload } from "#app/components/admin/use-upload.ts";
import { FileInput } from "#app/components/forms/file-input.tsx";
import { useToast } from "#app/components/ui/toast.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { useCount } from "#app/lib/i18n.ts";
import { uploadFileToStorage } from "#app/lib/resumable-upload.ts";
import { asText } from "#domain/content-form.ts";
import { formatDate } from "#domain/format.ts";
import type { FormAnswer } from "#domain/form-answer.ts";
import type { Language } from "#domain/language.ts";
import {
  clampFocal,
  focalPosition,
  formatBytes,
  isLibraryFilter,
  LIBRARY_ACCEPT,
  LIBRARY_FOLDER,
  LIBRARY_PAGE_SIZE,
  LIBRARY_QUERY_MAX,
  LIBRARY_TEXT_FIELDS,
  LIBRARY_TEXT_MAX,
  parseLibraryPatch,
  type FocalPoint,
  type LibraryFile,
  type LibraryFilter,
  type LibraryUsage,
} from "#domain/library.ts";
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

type LibraryAnswer = FormAnswer<string, "BODY_TOO_LARGE" | "BAD_REQUEST" | "INVALID" | "NOT_FOUND" | "IN_USE" | "FORBIDDEN"> & {
  intent?: "update" | "delete";
  usage?: LibraryUsage[];
};

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

const FILTERS = ["all", "image", "audio", "document", "video"] as const;
const DELETE_FETCHER = "library-delete";

/** Upload bar steps of a plain file (use-upload.ts): 10 once started, 90 once sent, 100 when stored. */
const FILE_STEPS = { started: 10, sent: 90 };

export default function MediaLibrary({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const count = useCount();
  const lang = i18n.language as Language;
  const [params] = useSearchParams();
  const { items, total, page, pageSize, q, kind, open } = loaderData;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const toast = useToast();
  const navigate = useNavigate();
  // The dialog's delete (one fetcher by key): the dialog goes with the file, the page says it is done.
  const removed = useFetcher<LibraryAnswer>({ key: DELETE_FETCHER });
  const justDeleted = removed.data?.ok === true;

  useEffect(() => {
    if (loaderData.openMissing && !justDeleted) toast({ title: t("library.deleteFailedTitle"), description: t("library.notFound"), variant: "destructive" });
  }, [loaderData.openMissing, justDeleted, t, toast]);

  useEffect(() => {
    if (removed.state !== "idle" || !removed.data?.ok) return;
    toast({ title: t("library.deletedTitle"), description: t("library.deleted"), variant: "success" });
    const next = new URLSearchParams(window.location.search);
    next.delete("file");
    void navigate(`?${next.toString()}`, { replace: true, preventScrollReset: true });
  }, [removed.state, removed.data, navigate, t, toast]);

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

      <div className="space-y-3 rounded-lg border border-sand-200 bg-white p-4 shadow-sm">
        <Form method="get" role="search" className="flex flex-wrap items-end gap-2" data-testid="library-search">
          {kind && <input type="hidden" name="kind" value={kind} />}
          <label className="min-w-0 flex-1 basis-60">
            <span className="mb-1 block text-sm font-bold">{t("library.searchLabel")}</span>
            <input
              type="search"
              name="q"
              defaultValue={q}
              key={q}
              maxLength={LIBRARY_QUERY_MAX}
              placeholder={t("library.searchPlaceholder")}
              dir="auto"
              className="h-11 w-full rounded-md border border-sand-300 bg-white px-3 focus:border-desert-500 focus:ring-2 focus:ring-desert-500/30 focus:outline-none"
              data-testid="library-q"
            />
          </label>
          <button type="submit" className="h-11 rounded-md bg-desert-600 px-5 font-bold text-white hover:bg-desert-700" data-testid="library-search-submit">
            {t("library.search")}
          </button>
        </Form>
        <nav aria-label={t("library.typeLabel")}>
          <ul className="flex flex-wrap gap-2">
            {FILTERS.map((filter) => {
              const current = (kind ?? "all") === filter;
              return (
                <li key={filter}>
                  <Link
                    to={href({ kind: filter === "all" ? null : filter, page: null })}
                    aria-current={current ? "page" : undefined}
                    className={`inline-flex h-9 items-center rounded-full border px-4 text-sm font-bold ${
                      current ? "border-desert-600 bg-desert-600 text-white" : "border-sand-300 bg-white text-ink hover:bg-sand-100"
                    }`}
                    data-testid={`library-filter-${filter}`}
                  >
                    {t(`library.filters.${filter}`)}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      </div>

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

      {pages > 1 && (
        <nav aria-label={t("library.pagination")} className="flex items-center justify-between gap-3" data-testid="library-pages">
          {page > 1 ? (
            <Link to={href({ page: page - 1 > 1 ? String(page - 1) : null })} rel="prev" className={pageLinkClass} data-testid="library-prev">
              {t("library.previous")}
            </Link>
          ) : (
            <span />
          )}
          <span className="text-sm text-ink-soft">{t("library.pageOf", { page, pages })}</span>
          {page < pages ? (
            <Link to={href({ page: String(page + 1) })} rel="next" className={pageLinkClass} data-testid="library-next">
              {t("library.next")}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}

      <DetailsDialog key={open?.file.id ?? "none"} open={open} closeTo={href({})} lang={lang} canDelete={loaderData.canDelete} />
    </section>
  );
}

const pageLinkClass = "rounded-md border border-sand-300 bg-white px-4 py-2 text-sm font-bold hover:bg-sand-100";

function KindIcon({ kind }: { kind: LibraryFilter }) {
  // A sound wave, a page: shapes only, the card's words say what it is.
  return (
    <svg viewBox="0 0 48 48" aria-hidden="true" className="h-12 w-12 text-ink-soft" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round">
      {kind === "audio" ? (
        <path d="M6 24h4M14 16v16M20 10v28M26 18v12M32 13v22M38 20v8M42 24h0" />
      ) : (
        <>
          <path d="M13 5h16l10 10v28H13z" />
          <path d="M29 5v10h10M18 25h16M18 31h16M18 37h10" />
        </>
      )}
    </svg>
  );
}

function LibraryCard({ item, to }: { item: LibraryFile; to: string }) {
  const { t } = useTranslation();
  const count = useCount();
  return (
    <Link
      to={to}
      preventScrollReset
      className="group flex h-full flex-col overflow-hidden rounded-lg border border-sand-200 bg-white shadow-sm transition hover:shadow-md focus-visible:ring-2 focus-visible:ring-desert-500"
      data-testid="library-item"
      data-kind={item.kind}
      data-id={item.id || undefined}
    >
      <LibraryThumbnail src={item.thumbnail} width={item.width ?? 400} height={item.height ?? 300} focal={item.focal} fallback={<KindIcon kind={item.kind} />}>
        <span className="absolute start-2 top-2 rounded-full bg-white/90 px-2 py-0.5 text-xs font-bold text-ink shadow-sm">
          {t(`library.kinds.${item.kind}`)}
        </span>
      </LibraryThumbnail>
      <div className="flex flex-1 flex-col gap-1 p-2.5">
        <span className="line-clamp-2 text-sm font-bold break-words" dir="auto" title={item.name}>
          {item.name}
        </span>
        <span className={`text-xs ${item.usageCount ? "text-palm-700" : "text-ink-soft"}`} data-testid="library-usage">
          {item.usageCount ? count("library.usedBy", item.usageCount) : t("library.unused")}
        </span>
        {item.kind === "video" && <span className="text-xs text-desert-700">{t("library.manageVideo")}</span>}
      </div>
    </Link>
  );
}

/** Several files into the library, one after the other, each by tus with its progress. */
function LibraryUpload() {
  const { t } = useTranslation();
  const count = useCount();
  const toast = useToast();
  const revalidator = useRevalidator();
  const upload = useUpload(FILE_STEPS);
  const formRef = useRef<HTMLFormElement>(null);
  const [current, setCurrent] = useState<{ name: string; index: number; of: number } | null>(null);
  const cancelled = useRef(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem("files") as HTMLInputElement | null;
    const files = [...(input?.files ?? [])];
    if (!files.length) {
      input?.focus();
      toast({ title: t("newsroom.ui.videos.missingFieldsTitle"), description: t("newsroom.ui.videos.missingFields"), variant: "destructive" });
      return;
    }
    cancelled.current = false;
    let done = 0;
    for (const [index, file] of files.entries()) {
      if (cancelled.current) break;
      setCurrent({ name: file.name, index: index + 1, of: files.length });
      try {
        const url = await upload.run((steps) => uploadFileToStorage(file, LIBRARY_FOLDER, steps));
        if (url) done++;
      } catch (error) {
        const reason = uploadFailureText(error, t("newsroom.ui.videos.timedOut"), t("library.unsupported"));
        toast({ title: t("library.uploadFailedTitle"), description: t("library.uploadFailed", { name: file.name, reason }), variant: "destructive" });
      }
    }
    setCurrent(null);
    if (done) {
      toast({ title: t("library.uploadedTitle"), description: count("library.uploaded", done), variant: "success" });
      formRef.current?.reset();
      void revalidator.revalidate();
    }
  }

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      className="space-y-3 rounded-lg border border-sand-200 bg-white p-4 shadow-sm"
      data-testid="library-upload"
    >
      <h2 className="text-lg font-bold">{t("library.uploadTitle")}</h2>
      <p id="library-upload-hint" className="text-sm text-ink-soft">
        {t("library.uploadHint")}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <FileInput
          id="library-files"
          name="files"
          multiple
          accept={LIBRARY_ACCEPT}
          disabled={upload.busy}
          aria-describedby="library-upload-hint"
          buttonLabel={t("library.chooseFiles")}
          className="min-w-0 flex-1"
          data-testid="library-file"
        />
        <button
          type="submit"
          disabled={upload.busy}
          className="h-11 rounded-md bg-desert-600 px-5 font-bold text-white hover:bg-desert-700 disabled:opacity-60"
          data-testid="library-upload-submit"
        >
          {t("library.upload")}
        </button>
        {upload.busy && (
          <button
            type="button"
            onClick={() => {
              cancelled.current = true;
              void upload.cancel();
            }}
            className="h-11 rounded-md border border-sand-300 px-4 text-sm font-bold hover:bg-sand-100"
            data-testid="library-upload-cancel"
          >
            {t("library.cancelUpload")}
          </button>
        )}
      </div>
      {upload.busy && current && (
        <div className="space-y-1">
          <p className="truncate text-sm font-bold" dir="auto">
            {current.of > 1 ? `${current.index}/${current.of} · ` : ""}
            {current.name}
          </p>
          <UploadProgress
            phase={upload.phase}
            progress={upload.progress}
            resuming={upload.resuming}
            offline={upload.offline}
            label={t("library.uploadProgress", { name: current.name })}
            testId="library-progress"
          />
        </div>
      )}
    </form>
  );
}

type OpenFile = { file: LibraryFile; usage: LibraryUsage[] } | null;

/** A file's details in a modal dialog: facts, the texts and the focal point (saved together), its uses, delete. */
function DetailsDialog({ open, closeTo, lang, canDelete }: { open: OpenFile; closeTo: string; lang: Language; canDelete: boolean }) {
  const { t } = useTranslation();
  const count = useCount();
  const toast = useToast();
  const navigate = useNavigate();
  const save = useFetcher<LibraryAnswer>();
  const remove = useFetcher<LibraryAnswer>({ key: DELETE_FETCHER });
  const [confirming, setConfirming] = useState(false);
  const [focal, setFocal] = useState<FocalPoint>(open?.file.focal ?? { x: 0.5, y: 0.5 });

  useEffect(() => {
    if (save.state !== "idle" || !save.data) return;
    toast(
      save.data.ok
        ? { title: t("library.savedTitle"), description: t("library.saved"), variant: "success" }
        : { title: t("library.saveFailedTitle"), description: t("library.saveFailed"), variant: "destructive" },
    );
  }, [save.state, save.data, t, toast]);

  useEffect(() => {
    if (remove.state !== "idle" || !remove.data) return;
    // Done: the page says so (the dialog goes with the file). IN_USE: the uses changed since the dialog
    // opened; the confirmation, still open, now lists them.
    if (!remove.data.ok && remove.data.formError !== "IN_USE")
      toast({ title: t("library.deleteFailedTitle"), description: t("library.deleteFailed"), variant: "destructive" });
  }, [remove.state, remove.data, t, toast]);

  if (!open) return null;
  const { file } = open;
  const usage = remove.data?.usage ?? open.usage;
  const busy = save.state !== "idle";
  const fieldErrors = save.data && !save.data.ok ? (save.data.fields ?? {}) : {};

  return (
    <ModalDialog
      open
      onClose={() => void navigate(closeTo, { preventScrollReset: true, replace: true })}
      labelledBy="library-details-title"
      className="m-auto max-h-[calc(100dvh-2rem)] w-[min(60rem,calc(100vw-1.5rem))] overflow-y-auto rounded-xl border border-sand-200 bg-white p-0 text-ink shadow-xl backdrop:bg-ink/40"
      testId="library-details"
    >
      <DialogHeader
        titleId="library-details-title"
        title={t("library.details")}
        subtitle={file.name}
        closeLabel={t("library.close")}
        closeTestId="library-details-close"
        inset="px-5"
      />

      <div className="grid gap-5 p-5 md:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]">
        <div className="space-y-4">
          {file.kind === "image" ? (
            <FocalPicker src={file.url} focal={focal} onChange={setFocal} />
          ) : file.kind === "audio" ? (
            // A preview of the uploaded sound for the editor; captions belong to the items that publish it.
            // eslint-disable-next-line jsx-a11y/media-has-caption
            <audio controls preload="none" src={file.url} className="w-full" aria-label={file.name} />
          ) : (
            <a href={file.url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-2 font-bold text-desert-700 underline">
              <KindIcon kind={file.kind} />
              {file.name}
            </a>
          )}
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm" data-testid="library-facts">
            <dt className="text-ink-soft">{t("library.facts.type")}</dt>
            <dd dir="ltr" className="text-start">
              {file.mime ?? t(`library.kinds.${file.kind}`)}
            </dd>
            {file.bytes !== null && (
              <>
                <dt className="text-ink-soft">{t("library.facts.size")}</dt>
                <dd dir="ltr" className="text-start">
                  {formatBytes(file.bytes, lang)}
                </dd>
              </>
            )}
            {file.width && file.height ? (
              <>
                <dt className="text-ink-soft">{t("library.facts.dimensions")}</dt>
                <dd dir="ltr" className="text-start" data-testid="library-dimensions">
                  {file.width} × {file.height}
                </dd>
              </>
            ) : null}
            <dt className="text-ink-soft">{t("library.facts.uploaded")}</dt>
            <dd>{formatDate(file.createdAt, lang, "long")}</dd>
            <dt className="text-ink-soft">{t("library.facts.address")}</dt>
            <dd dir="ltr" className="text-start font-mono text-xs break-all">
              {file.url}
            </dd>
          </dl>
          <section aria-labelledby="library-usage-title">
            <h3 id="library-usage-title" className="font-bold">
              {t("library.usage")}{" "}
              <span className="text-sm font-normal text-ink-soft">
                ({open.usage.length ? count("library.usedBy", open.usage.length) : t("library.unused")})
              </span>
            </h3>
            {open.usage.length ? (
              <ul className="mt-1 list-disc space-y-0.5 ps-5 text-sm" data-testid="library-usage-list">
                {open.usage.map((u) => (
                  <li key={`${u.type}:${u.id}`}>
                    <Link to={u.href} className="text-desert-700 underline" dir="auto">
                      {u.title}
                    </Link>{" "}
                    <span className="text-ink-soft">({t(`admin.${segmentOf(u.href)}`)})</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-1 text-sm text-ink-soft">{t("library.notUsed")}</p>
            )}
          </section>
        </div>

        <save.Form method="post" className="space-y-4" data-testid="library-edit">
          <input type="hidden" name="intent" value="update" />
          <input type="hidden" name="id" value={file.id} />
          <input type="hidden" name="focal_x" value={focal.x} />
          <input type="hidden" name="focal_y" value={focal.y} />
          {LIBRARY_TEXT_FIELDS.map((field) => (
            <fieldset key={field} className="space-y-2">
              <legend className="font-bold">{t(`library.${field}`)}</legend>
              {field === "alt" && file.kind === "image" && (
                <p id="library-alt-hint" className="text-xs text-ink-soft">
                  {t("library.altHint")}
                </p>
              )}
              {(["ar", "fr"] as const).map((l) => {
                const name = `${field}_${l}`;
                const error = fieldErrors[`${field}.${l}`];
                const common = {
                  id: `library-${name}`,
                  name,
                  lang: l,
                  dir: l === "ar" ? ("rtl" as const) : ("ltr" as const),
                  defaultValue: file[field][l],
                  maxLength: LIBRARY_TEXT_MAX[field],
                  "aria-invalid": error ? true : undefined,
                  "aria-describedby": field === "alt" && file.kind === "image" ? "library-alt-hint" : undefined,
                  className:
                    "w-full rounded-md border border-sand-300 bg-white px-3 py-2 focus:border-desert-500 focus:ring-2 focus:ring-desert-500/30 focus:outline-none aria-[invalid=true]:border-red-600",
                  "data-testid": `library-${name}`,
                };
                return (
                  <div key={l}>
                    <label htmlFor={common.id} className="mb-0.5 block text-sm text-ink-soft">
                      {t(l === "ar" ? "library.inArabic" : "library.inFrench")}
                    </label>
                    {field === "caption" ? <textarea rows={2} {...common} /> : <input type="text" {...common} />}
                    {error && <p className="mt-0.5 text-xs text-red-800">{t(error)}</p>}
                  </div>
                );
              })}
            </fieldset>
          ))}
          <div className="flex flex-wrap items-center justify-between gap-2 border-t border-sand-200 pt-4">
            <button
              type="submit"
              disabled={busy}
              aria-busy={busy || undefined}
              className="h-11 rounded-md bg-desert-600 px-6 font-bold text-white hover:bg-desert-700 disabled:opacity-60"
              data-testid="library-save"
            >
              {busy ? t("library.saving") : t("library.save")}
            </button>
            {canDelete && (
              <button
                type="button"
                onClick={() => setConfirming(true)}
                className="h-11 rounded-md border border-red-200 px-4 text-sm font-bold text-red-800 hover:bg-red-50"
                data-testid="library-delete"
              >
                {t("library.delete")}
              </button>
            )}
          </div>
        </save.Form>
      </div>

      {confirming && canDelete && (
        <section
          role="alertdialog"
          aria-labelledby="library-delete-title"
          aria-describedby="library-delete-text"
          className="mx-5 mb-5 rounded-lg border border-red-200 bg-red-50/60 p-4"
          data-testid="library-delete-confirm"
        >
          <h3 id="library-delete-title" className="font-bold">
            {t("library.deleteTitle")}
          </h3>
          <p id="library-delete-text" className="mt-1 text-sm">
            {t("library.deleteText")}
          </p>
          {usage.length > 0 && (
            <>
              <p className="mt-2 text-sm font-bold text-red-900">{count("library.deleteInUse", usage.length)}</p>
              <ul className="mt-1 list-disc ps-5 text-sm" data-testid="library-delete-usage">
                {usage.map((u) => (
                  <li key={`${u.type}:${u.id}`} data-published={u.published || undefined}>
                    <span dir="auto">{u.title}</span>
                    {u.published && <span className="ms-1 font-bold text-red-900">({t("library.usagePublished")})</span>}
                  </li>
                ))}
              </ul>
            </>
          )}
          <remove.Form method="post" className="mt-3 flex flex-wrap justify-end gap-2">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={file.id} />
            {usage.length > 0 && <input type="hidden" name="force" value="1" />}
            <button
              type="button"
              onClick={() => setConfirming(false)}
              className="rounded-md border border-sand-300 bg-white px-4 py-2 text-sm font-bold hover:bg-sand-100"
              data-testid="library-delete-cancel"
            >
              {t("library.cancel")}
            </button>
            <button
              type="submit"
              disabled={remove.state !== "idle"}
              className="rounded-md bg-red-700 px-4 py-2 text-sm font-bold text-white hover:bg-red-800 disabled:opacity-70"
              data-testid="library-delete-submit"
            >
              {usage.length ? t("library.deleteAnyway") : t("library.delete")}
            </button>
          </remove.Form>
        </section>
      )}
    </ModalDialog>
  );
}

/** The admin menu's word for the list an editor address belongs to (/admin/{segment}/{id}). */
const segmentOf = (href: string) => href.split("/")[2] ?? "";

const STEP = 0.01;
const BIG_STEP = 0.1;

/**
 * The focal point on the picture: a click puts it where the pointer is; as a two-way slider, the arrow keys move
 * it by 1 % (10 % with Shift), Home centres it. Left and right are the picture's, whatever the page's direction.
 * Two crops below show what cards will keep.
 */
function FocalPicker({ src, focal, onChange }: { src: string; focal: FocalPoint; onChange: (focal: FocalPoint) => void }) {
  const { t } = useTranslation();
  const percent = (n: number) => Math.round(n * 100);
  const valueText = t("library.focalValue", { x: percent(focal.x), y: percent(focal.y) });

  function click(event: MouseEvent<HTMLDivElement>) {
    const box = event.currentTarget.getBoundingClientRect();
    onChange(clampFocal({ x: (event.clientX - box.left) / box.width, y: (event.clientY - box.top) / box.height }));
  }

  function key(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.shiftKey ? BIG_STEP : STEP;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (event.key === "Home") onChange({ x: 0.5, y: 0.5 });
    else if (moves[event.key]) onChange(clampFocal({ x: focal.x + moves[event.key][0], y: focal.y + moves[event.key][1] }));
    else return;
    event.preventDefault();
  }

  return (
    <div className="space-y-2">
      <p id="library-focal-label" className="font-bold">
        {t("library.focal")}
      </p>
      <p id="library-focal-hint" className="text-xs text-ink-soft">
        {t("library.focalHint")}
      </p>
      <div dir="ltr" className="relative mx-auto w-fit">
        <div
          role="slider"
          tabIndex={0}
          aria-labelledby="library-focal-label"
          aria-describedby="library-focal-hint"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent(focal.x)}
          aria-valuetext={valueText}
          onClick={click}
          onKeyDown={key}
          className="relative cursor-crosshair overflow-hidden rounded-md bg-sand-100 focus-visible:ring-4 focus-visible:ring-desert-500 focus-visible:outline-none"
          data-testid="library-focal"
          data-x={focal.x}
          data-y={focal.y}
        >
          <img src={src} alt="" draggable={false} className="block max-h-72 w-auto max-w-full select-none" />
          <span
            aria-hidden="true"
            className="pointer-events-none absolute flex h-9 w-9 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full border-[3px] border-white bg-desert-600/50 shadow-[0_0_0_2px_rgba(0,0,0,0.7)]"
            style={{ left: `${focal.x * 100}%`, top: `${focal.y * 100}%` }}
          >
            <span className="h-1.5 w-1.5 rounded-full bg-white" />
          </span>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <span className="text-sm text-ink-soft" data-testid="library-focal-value">
          {valueText}
        </span>
        <button type="button" onClick={() => onChange({ x: 0.5, y: 0.5 })} className="rounded-md border border-sand-300 px-3 py-1 text-sm hover:bg-sand-100">
          {t("library.focalCenter")}
        </button>
      </div>
      <div className="flex items-end gap-3" aria-hidden="true">
        <img src={src} alt="" className="h-16 w-28 rounded object-cover" style={{ objectPosition: focalPosition(focal) }} />
        <img src={src} alt="" className="h-16 w-16 rounded object-cover" style={{ objectPosition: focalPosition(focal) }} />
        <img src={src} alt="" className="h-20 w-12 rounded object-cover" style={{ objectPosition: focalPosition(focal) }} />
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
