import { useCallback, useEffect, useId, useRef, useState, type ChangeEvent, type RefObject } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "#app/lib/i18n.ts";
import { imageSources } from "#domain/image-sources.ts";
import { LIBRARY_FOLDER, localizedText, type LibraryFile, type LibraryFilter, type LibraryPage } from "#domain/library.ts";
import { FileInput } from "#app/components/forms/file-input.tsx";
import { useToast } from "#app/components/ui/toast.tsx";
import { uploadFileToStorage } from "#app/lib/resumable-upload.ts";
import { LibraryThumbnail } from "./library-thumbnail.tsx";
import { DialogHeader, ModalDialog } from "./modal-dialog.tsx";
import { UploadProgress } from "./upload-progress.tsx";
import { useUpload, useUploadFailureText } from "./use-upload.ts";

export type LibraryPickerProps = {
  /** Open: the dialog is shown (modal, focus kept inside, Escape closes). */
  open: boolean;
  onClose: () => void;
  /** The file the editor chose, or the file just uploaded into the library. */
  onChoose: (file: LibraryFile) => void;
  /** The kinds offered (a filter appears when there are several); default: images. */
  kinds?: readonly LibraryFilter[];
  /** Where an upload from the dialog goes (the field's folder, or the library's own). */
  folder?: string;
  /** The dialog's heading, when not the default «choose from the library». */
  title?: string;
};

/** What each kind's file chooser takes (the library's upload endpoint checks the content). */
const ACCEPT: Record<LibraryFilter, string> = {
  image: "image/jpeg,image/png,image/gif,image/webp,image/avif",
  audio: "audio/*",
  document: "application/pdf",
  video: "",
};

type Query = { q: string; kind: LibraryFilter | ""; page: number };
type State = { status: "loading" } | { status: "failed" } | { status: "ready"; page: LibraryPage };

const SEARCH_DELAY_MS = 250;
/** A tile's width: a half of the dialog on a phone, a quarter on a wide screen. */
const TILE_SIZES = "(min-width: 640px) 220px, 45vw";

async function fetchLibrary(query: Query, signal?: AbortSignal): Promise<LibraryPage> {
  const params = new URLSearchParams({ page: String(query.page) });
  if (query.q.trim()) params.set("q", query.q.trim());
  if (query.kind) params.set("kind", query.kind);
  const res = await fetch(`/api/admin/library?${params}`, { headers: { Accept: "application/json" }, signal });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return (await res.json()) as LibraryPage;
}

/**
 * The media library in a dialog (issue 28): search, a filter by kind, a paged grid of the files, and an upload
 * straight into the library (tus, with its progress); choosing a file, or finishing an upload, hands the file
 * to the caller. A native modal <dialog> (the page behind is inert, Escape closes, focus returns to the opener),
 * rendered into the body so its controls never belong to the content form around the opener.
 */
export function LibraryPicker({ open, onClose, onChoose, kinds = ["image"], folder = LIBRARY_FOLDER, title }: LibraryPickerProps) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const dialog = useRef<HTMLDialogElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const baseId = useId();
  const ids = { title: `${baseId}-title`, search: `${baseId}-search`, kind: `${baseId}-kind`, status: `${baseId}-status` };
  const offered = kinds;
  const library = useLibraryQuery(open, offered.length === 1 ? offered[0] : "");
  const { query, setQuery, state } = library;
  const upload = useUpload({ started: 10, sent: 90 });
  // The library takes pictures, sound and PDF; a field's own folder, pictures (server/media/storage/file-uploads).
  const failureText = useUploadFailureText(folder === LIBRARY_FOLDER ? ["image", "audio", "document"] : ["image"]);

  const choose = useCallback(
    (file: LibraryFile) => {
      onChoose(file);
      dialog.current?.close();
    },
    [onChoose],
  );

  async function uploaded(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    input.value = "";
    if (!file) return;
    try {
      const url = await upload.run((steps) => uploadFileToStorage(file, folder, steps));
      if (!url) return;
      // The upload is a library file now: its row (with its size and name) is the one handed back.
      const latest = await fetchLibrary({ q: "", kind: query.kind, page: 1 }).catch(() => null);
      const found = latest?.items.find((item) => item.url === url);
      toast({ title: t("libraryPicker.uploaded"), variant: "success" });
      choose(found ?? newFile(url, file));
    } catch (error) {
      toast({
        title: t("libraryPicker.uploadFailed"),
        description: failureText(error, t("libraryPicker.uploadFailed")),
        variant: "destructive",
        duration: 6000,
      });
    }
  }

  const accept = offered
    .map((k) => ACCEPT[k])
    .filter(Boolean)
    .join(",");
  const pages = state.status === "ready" ? Math.max(1, Math.ceil(state.page.total / state.page.pageSize)) : 1;

  const content = (
    // Shown and hidden with the native modal API: the rest of the page becomes inert while it is open.
    <ModalDialog
      open={open}
      dialogRef={dialog}
      initialFocus={search}
      onClose={() => {
        if (upload.busy) void upload.cancel();
        onClose();
      }}
      labelledBy={ids.title}
      // The dialog sits in the body but React events still bubble to the opener's form: its search box and
      // file chooser are not the form's input (no autosave, no field checks for them).
      onInput={(e) => e.stopPropagation()}
      onChange={(e) => e.stopPropagation()}
      className="m-auto max-h-[min(52rem,calc(100dvh-1rem))] w-[min(60rem,calc(100vw-1rem))] flex-col rounded-xl border border-sand-200 bg-white p-0 text-ink shadow-xl backdrop:bg-ink/50 open:flex"
      testId="library-picker"
    >
      {open && (
        <>
          <DialogHeader
            titleId={ids.title}
            title={title ?? t("libraryPicker.title")}
            closeLabel={t("libraryPicker.close")}
            closeTestId="library-picker-close"
          />

          <div className="grid gap-3 border-b border-sand-200 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-end sm:px-5">
            <PickerSearch ids={ids} searchRef={search} library={library} offered={offered} />
            {accept && <PickerUpload accept={accept} upload={upload} onFile={(e) => void uploaded(e)} />}
          </div>

          <div className="min-h-48 flex-1 overflow-y-auto px-4 py-4 sm:px-5">
            <PickerResults ids={ids} library={library} lang={i18n.language} onChoose={choose} />
          </div>

          {state.status === "ready" && pages > 1 && <PickerPages page={query.page} pages={pages} setQuery={setQuery} />}
        </>
      )}
    </ModalDialog>
  );
  // Only while open (so never on the server, nor while the page hydrates), in the body.
  return open ? createPortal(content, document.body) : null;
}

/** The query (typed text once the typing pauses, kind, page) and the page of files that answers it. */
function useLibraryQuery(open: boolean, kind: LibraryFilter | "") {
  const [query, setQuery] = useState<Query>({ q: "", kind, page: 1 });
  const [typed, setTyped] = useState("");
  const [state, setState] = useState<State>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);

  // The list follows the query, once the typing pauses; an answer to an older query is dropped.
  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setState({ status: "loading" });
      fetchLibrary(query, controller.signal).then(
        (page) => setState({ status: "ready", page }),
        (error: unknown) => {
          if (!controller.signal.aborted) {
            console.warn("library not loaded", error);
            setState({ status: "failed" });
          }
        },
      );
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [open, query, attempt]);

  useEffect(() => {
    if (typed === query.q) return;
    const timer = setTimeout(() => setQuery((q) => ({ ...q, q: typed, page: 1 })), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, query.q]);

  return { query, setQuery, typed, setTyped, state, retry: () => setAttempt((a) => a + 1) };
}

type Library = ReturnType<typeof useLibraryQuery>;
type Ids = { title: string; search: string; kind: string; status: string };

/** The search box and, when several kinds are offered, the kind filter. */
function PickerSearch({
  ids,
  searchRef,
  library,
  offered,
}: {
  ids: Ids;
  searchRef: RefObject<HTMLInputElement | null>;
  library: Library;
  offered: readonly LibraryFilter[];
}) {
  const { t } = useTranslation();
  const { query, setQuery, typed, setTyped } = library;
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="min-w-48 flex-1">
        <label htmlFor={ids.search} className="mb-1 block text-sm font-bold">
          {t("libraryPicker.search")}
        </label>
        <input
          ref={searchRef}
          id={ids.search}
          type="search"
          dir="auto"
          value={typed}
          maxLength={100}
          onChange={(e) => setTyped(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              setQuery((q) => ({ ...q, q: typed, page: 1 }));
            }
          }}
          placeholder={t("libraryPicker.searchPlaceholder")}
          className="block h-11 w-full rounded-md border border-sand-300 px-3 text-sm outline-none focus:ring-2 focus:ring-desert-500"
          data-testid="library-picker-search"
        />
      </div>
      {offered.length > 1 && (
        <div>
          <label htmlFor={ids.kind} className="mb-1 block text-sm font-bold">
            {t("libraryPicker.kind")}
          </label>
          <select
            id={ids.kind}
            value={query.kind}
            onChange={(e) => setQuery((q) => ({ ...q, kind: e.currentTarget.value as LibraryFilter | "", page: 1 }))}
            className="block h-11 rounded-md border border-sand-300 bg-white px-3 text-sm outline-none focus:ring-2 focus:ring-desert-500"
            data-testid="library-picker-kind"
          >
            <option value="">{t("libraryPicker.kinds.all")}</option>
            {offered.map((k) => (
              <option key={k} value={k}>
                {t(`libraryPicker.kinds.${k}`)}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}

/** An upload straight into the library: the file chooser, or the upload's progress and its cancel button. */
function PickerUpload({
  accept,
  upload,
  onFile,
}: {
  accept: string;
  upload: ReturnType<typeof useUpload>;
  onFile: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="min-w-0" data-uploading={upload.busy || undefined}>
      {upload.busy ? (
        <div className="flex items-end gap-2">
          <div className="min-w-48 flex-1">
            <UploadProgress {...upload} label={t("libraryPicker.uploading")} testId="library-picker-progress" />
          </div>
          <button
            type="button"
            onClick={() => void upload.cancel()}
            className="h-10 rounded-md border border-red-200 px-3 text-sm font-bold text-red-800 hover:bg-red-50"
            data-testid="library-picker-upload-cancel"
          >
            {t("newsroom.ui.fileUpload.cancel")}
          </button>
        </div>
      ) : (
        <FileInput
          accept={accept}
          onChange={onFile}
          buttonLabel={t("libraryPicker.upload")}
          aria-label={t("libraryPicker.upload")}
          data-testid="library-picker-upload"
        />
      )}
    </div>
  );
}

/** What the list says (loading, failed with a retry, none, how many) and the grid of files. */
function PickerResults({ ids, library, lang, onChoose }: { ids: Ids; library: Library; lang: string; onChoose: (file: LibraryFile) => void }) {
  const { t } = useTranslation();
  const { state, query, retry } = library;
  return (
    <>
      <p id={ids.status} role="status" className={state.status === "ready" && state.page.items.length > 0 ? "sr-only" : "py-8 text-center text-ink-soft"}>
        {state.status === "loading"
          ? t("libraryPicker.loading")
          : state.status === "failed"
            ? t("libraryPicker.failed")
            : state.page.items.length === 0
              ? t(query.q ? "libraryPicker.noResults" : "libraryPicker.empty")
              : t("libraryPicker.results", { n: state.page.total })}
      </p>
      {state.status === "failed" && (
        <div className="text-center">
          <button
            type="button"
            onClick={retry}
            className="rounded-md border border-sand-300 px-4 py-2 text-sm font-bold hover:bg-sand-100"
            data-testid="library-picker-retry"
          >
            {t("libraryPicker.retry")}
          </button>
        </div>
      )}
      {state.status === "ready" && state.page.items.length > 0 && (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-labelledby={ids.title} data-testid="library-picker-grid">
          {state.page.items.map((file) => (
            <li key={`${file.kind}:${file.url}`}>
              <FileTile file={file} lang={lang} onChoose={onChoose} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function PickerPages({ page, pages, setQuery }: { page: number; pages: number; setQuery: Library["setQuery"] }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("libraryPicker.pages")} className="flex items-center justify-between gap-3 border-t border-sand-200 px-4 py-3 text-sm sm:px-5">
      <button
        type="button"
        disabled={page <= 1}
        onClick={() => setQuery((q) => ({ ...q, page: q.page - 1 }))}
        className="h-10 rounded-md border border-sand-300 px-4 font-bold hover:bg-sand-100 disabled:opacity-50"
        data-testid="library-picker-previous"
      >
        {t("libraryPicker.previous")}
      </button>
      <span data-testid="library-picker-page">{t("libraryPicker.pageOf", { page, pages })}</span>
      <button
        type="button"
        disabled={page >= pages}
        onClick={() => setQuery((q) => ({ ...q, page: q.page + 1 }))}
        className="h-10 rounded-md border border-sand-300 px-4 font-bold hover:bg-sand-100 disabled:opacity-50"
        data-testid="library-picker-next"
      >
        {t("libraryPicker.next")}
      </button>
    </nav>
  );
}

/**
 * A form field's «from the library» button and the picker it opens (image, audio, document fields): the button is
 * `library-open-{name}`, described like the field; choosing a file hands it to `onChoose`.
 */
export function LibraryPickButton({
  name,
  describedBy,
  className,
  onChoose,
  kinds,
  folder,
}: {
  name: string;
  describedBy?: string;
  className: string;
  onChoose: (file: LibraryFile) => void;
  kinds: readonly LibraryFilter[];
  folder?: string;
}) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => setPicking(true)}
        aria-haspopup="dialog"
        aria-describedby={describedBy}
        className={`${className} focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-desert-500`}
        data-testid={`library-open-${name}`}
      >
        {t("libraryPicker.fromLibrary")}
      </button>
      <LibraryPicker open={picking} onClose={() => setPicking(false)} onChoose={onChoose} kinds={kinds} folder={folder} />
    </>
  );
}

/** One file of the grid: its picture (or its kind), its name and its alt text; the whole tile is the button. */
function FileTile({ file, lang, onChoose }: { file: LibraryFile; lang: string; onChoose: (file: LibraryFile) => void }) {
  const { t } = useTranslation();
  const alt = localizedText(file.alt, lang);
  const picture = file.thumbnail ?? (file.kind === "image" ? file.url : null);
  const sources = imageSources(picture ?? "");
  return (
    <button
      type="button"
      onClick={() => onChoose(file)}
      className="group flex w-full flex-col overflow-hidden rounded-lg border border-sand-200 bg-white text-start hover:border-desert-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-desert-500"
      data-testid="library-picker-item"
      data-url={file.url}
    >
      <LibraryThumbnail
        src={picture ? sources.src : null}
        srcSet={sources.srcSet}
        sizes={sources.srcSet ? TILE_SIZES : undefined}
        focal={file.focal}
        fallback={<span className="text-sm font-bold text-ink-soft">{t(`libraryPicker.kinds.${file.kind}`)}</span>}
      />
      <span className="block w-full space-y-0.5 p-2">
        <span className="block truncate text-sm font-bold" dir="auto" title={file.name}>
          <span className="sr-only">{t("libraryPicker.chooseFile")} </span>
          {file.name}
        </span>
        <span className={`block truncate text-xs ${alt ? "text-ink-soft" : "italic text-amber-900"}`} dir={alt ? "auto" : undefined}>
          {alt || t("libraryPicker.noAlt")}
        </span>
      </span>
    </button>
  );
}

/** A file just uploaded that the list did not show yet: what the caller needs of it. */
function newFile(url: string, file: File): LibraryFile {
  const empty = { ar: "", fr: "" };
  const kind: LibraryFilter = file.type.startsWith("image/") ? "image" : file.type.startsWith("audio/") ? "audio" : "document";
  return {
    id: 0,
    url,
    kind,
    mime: file.type || null,
    bytes: file.size,
    width: null,
    height: null,
    name: file.name,
    alt: empty,
    caption: empty,
    credit: empty,
    focal: { x: 0.5, y: 0.5 },
    createdAt: new Date().toISOString(),
    usageCount: 0,
    thumbnail: kind === "image" ? url : null,
    href: null,
  };
}
