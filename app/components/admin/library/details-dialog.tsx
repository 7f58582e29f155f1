import { useEffect, useState } from "react";
import { Link, useFetcher, useNavigate, type FetcherWithComponents } from "react-router";
import { DialogHeader, ModalDialog } from "#app/components/admin/modal-dialog.tsx";
import { useToast } from "#app/components/ui/toast.tsx";
import { useCount, useTranslation } from "#app/lib/i18n.ts";
import { formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { formatBytes, LIBRARY_TEXT_FIELDS, LIBRARY_TEXT_MAX, type FocalPoint, type LibraryFile, type LibraryUsage } from "#domain/library.ts";
import { FocalPicker } from "./focal-picker.tsx";
import { KindIcon } from "./library-card.tsx";
import { DELETE_FETCHER, type LibraryAnswer, type OpenFile } from "./library-answer.ts";

type Fetcher = FetcherWithComponents<LibraryAnswer>;

/** A file's details in a modal dialog: facts, the texts and the focal point (saved together), its uses, delete. */
export function DetailsDialog({ open, closeTo, lang, canDelete }: { open: OpenFile; closeTo: string; lang: Language; canDelete: boolean }) {
  const { t } = useTranslation();
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
          <FilePreview file={file} focal={focal} onFocal={setFocal} />
          <FileFacts file={file} lang={lang} />
          <FileUsage usage={open.usage} />
        </div>
        <FileTextsForm save={save} file={file} focal={focal} canDelete={canDelete} onDelete={() => setConfirming(true)} />
      </div>

      {confirming && canDelete && (
        <DeleteConfirmation remove={remove} fileId={file.id} usage={remove.data?.usage ?? open.usage} onCancel={() => setConfirming(false)} />
      )}
    </ModalDialog>
  );
}

/** The picture with its focal point, the sound to play, or a link to the document. */
function FilePreview({ file, focal, onFocal }: { file: LibraryFile; focal: FocalPoint; onFocal: (focal: FocalPoint) => void }) {
  if (file.kind === "image") return <FocalPicker src={file.url} focal={focal} onChange={onFocal} />;
  if (file.kind === "audio") {
    // A preview of the uploaded sound for the editor; captions belong to the items that publish it.
    // eslint-disable-next-line jsx-a11y/media-has-caption
    return <audio controls preload="none" src={file.url} className="w-full" aria-label={file.name} />;
  }
  return (
    <a href={file.url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-2 font-bold text-desert-700 underline">
      <KindIcon kind={file.kind} />
      {file.name}
    </a>
  );
}

function FileFacts({ file, lang }: { file: LibraryFile; lang: Language }) {
  const { t } = useTranslation();
  return (
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
  );
}

/** The admin menu's word for the list an editor address belongs to (/admin/{segment}/{id}). */
const segmentOf = (href: string) => href.split("/")[2] ?? "";

/** The items that use the file, each a link to its editor. */
function FileUsage({ usage }: { usage: LibraryUsage[] }) {
  const { t } = useTranslation();
  const count = useCount();
  return (
    <section aria-labelledby="library-usage-title">
      <h3 id="library-usage-title" className="font-bold">
        {t("library.usage")}{" "}
        <span className="text-sm font-normal text-ink-soft">({usage.length ? count("library.usedBy", usage.length) : t("library.unused")})</span>
      </h3>
      {usage.length ? (
        <ul className="mt-1 list-disc space-y-0.5 ps-5 text-sm" data-testid="library-usage-list">
          {usage.map((u) => (
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
  );
}

type TextsFormProps = { save: Fetcher; file: LibraryFile; focal: FocalPoint; canDelete: boolean; onDelete: () => void };

/** The file's texts in both languages and its focal point, saved together; the delete button beside save. */
function FileTextsForm({ save, file, focal, canDelete, onDelete }: TextsFormProps) {
  const { t } = useTranslation();
  const busy = save.state !== "idle";
  const fieldErrors = save.data && !save.data.ok ? (save.data.fields ?? {}) : {};
  return (
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
          {(["ar", "fr"] as const).map((l) => (
            <FileText key={l} file={file} field={field} lang={l} error={fieldErrors[`${field}.${l}`]} />
          ))}
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
            onClick={onDelete}
            className="h-11 rounded-md border border-red-200 px-4 text-sm font-bold text-red-800 hover:bg-red-50"
            data-testid="library-delete"
          >
            {t("library.delete")}
          </button>
        )}
      </div>
    </save.Form>
  );
}

type TextField = (typeof LIBRARY_TEXT_FIELDS)[number];

/** One text of the file in one language: a line, or two for the caption. */
function FileText({ file, field, lang, error }: { file: LibraryFile; field: TextField; lang: "ar" | "fr"; error: string | undefined }) {
  const { t } = useTranslation();
  const name = `${field}_${lang}`;
  const common = {
    id: `library-${name}`,
    name,
    lang,
    dir: lang === "ar" ? ("rtl" as const) : ("ltr" as const),
    defaultValue: file[field][lang],
    maxLength: LIBRARY_TEXT_MAX[field],
    "aria-invalid": error ? true : undefined,
    "aria-describedby": field === "alt" && file.kind === "image" ? "library-alt-hint" : undefined,
    className:
      "w-full rounded-md border border-sand-300 bg-white px-3 py-2 focus:border-desert-500 focus:ring-2 focus:ring-desert-500/30 focus:outline-none aria-[invalid=true]:border-red-600",
    "data-testid": `library-${name}`,
  };
  return (
    <div>
      <label htmlFor={common.id} className="mb-0.5 block text-sm text-ink-soft">
        {t(lang === "ar" ? "library.inArabic" : "library.inFrench")}
      </label>
      {field === "caption" ? <textarea rows={2} {...common} /> : <input type="text" {...common} />}
      {error && <p className="mt-0.5 text-xs text-red-800">{t(error)}</p>}
    </div>
  );
}

type ConfirmationProps = { remove: Fetcher; fileId: number; usage: LibraryUsage[]; onCancel: () => void };

/** Deleting asks first, naming the items that use the file (then it is deleted anyway, `force`). */
function DeleteConfirmation({ remove, fileId, usage, onCancel }: ConfirmationProps) {
  const { t } = useTranslation();
  const count = useCount();
  return (
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
        <input type="hidden" name="id" value={fileId} />
        {usage.length > 0 && <input type="hidden" name="force" value="1" />}
        <button
          type="button"
          onClick={onCancel}
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
  );
}
