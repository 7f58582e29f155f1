import { useState, type ChangeEvent } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import type { FieldDefinition } from "#domain/content-types/index.ts";
import { isVideoId } from "#domain/video-source.ts";
import { CAPTIONS_MIME } from "#domain/captions.ts";
import { useToast } from "#app/components/ui/toast.tsx";
import { adminJson, uploadFileToStorage, uploadToVideoLibrary } from "#app/lib/resumable-upload.ts";
import { UploadProgress } from "./upload-progress.tsx";
import { LibraryPickButton } from "./library-picker.tsx";
import type { LibraryFilter } from "#domain/library.ts";
import { useUpload, useUploadFailureText } from "./use-upload.ts";
import { allowedTypes, UNSUPPORTED_FILE_KEY, type UploadTypeKind } from "#domain/upload-types.ts";

type Props = {
  field: FieldDefinition;
  value: string;
  invalid: boolean;
  describedBy?: string;
  /** The storage folder of this field (back-office.md §7), where its audio and documents go. */
  folder?: string;
  /** Whether the editor may add to the video library (permission videos.manage). */
  canUploadVideo: boolean;
};

/** What a field takes from a chosen file: a video into the library (its id), or a file into storage (its URL). */
function destinationOf(field: FieldDefinition, file: File): "library" | "storage" | null {
  const video = file.type.startsWith("video/");
  if (field.kind === "video") return video ? "library" : null;
  if (field.kind === "audio") return file.type.startsWith("audio/") ? "storage" : null;
  if (field.kind === "captions") return isCaptionsFile(file) ? "storage" : null;
  return video ? "library" : "storage";
}

/** A .vtt file; some systems give it no type or text/plain, so its name counts too (the server reads its first bytes). */
const isCaptionsFile = (file: File) => file.type === CAPTIONS_MIME || /\.vtt$/i.test(file.name);
const asCaptionsFile = (file: File) => (file.type === CAPTIONS_MIME ? file : new File([file], file.name, { type: CAPTIONS_MIME }));

/**
 * The one control of the file kinds (audio, video, media file): the file's URL, a path on this site or a video
 * library id, typed in or filled by an upload. The upload is resumable (tus): a video goes to the video library
 * and the field keeps its id, an audio file or a document goes to the field's storage folder and the field keeps
 * its address. The form is not saved while a file is on its way (`data-uploading`). A file of the media library
 * (a video of the video library) can be chosen instead: its address (its id) fills the field.
 */
export function MediaRefField({ field, value: initial, invalid, describedBy, folder, canUploadVideo }: Props) {
  const { t } = useTranslation();
  const toast = useToast();
  const [value, setValue] = useState(initial);
  const upload = useUpload({ started: 10, sent: 90 });
  const takes: UploadTypeKind[] =
    field.kind === "video" || field.kind === "audio" || field.kind === "captions"
      ? [field.kind]
      : [...(canUploadVideo ? (["video"] as const) : []), "audio", "document"];
  const failureText = useUploadFailureText(takes);
  const id = `field-${field.name}`;
  const openable = value && !isVideoId(value) && /^(?:https?:\/\/|\/(?!\/))/i.test(value);
  const canUpload = field.kind === "video" ? canUploadVideo : Boolean(folder);
  const accept =
    field.kind === "video"
      ? "video/*"
      : field.kind === "audio"
        ? "audio/*"
        : field.kind === "captions"
          ? `.vtt,${CAPTIONS_MIME}`
          : `${canUploadVideo ? "video/*," : ""}audio/*,application/pdf`;

  async function chosen(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    input.value = "";
    if (!file) return;
    const destination = destinationOf(field, file);
    if (!destination || (destination === "library" && !canUploadVideo) || (destination === "storage" && !folder)) {
      toast({ title: t("newsroom.ui.fileUpload.failed"), description: t(UNSUPPORTED_FILE_KEY, { types: allowedTypes(takes) }), variant: "destructive" });
      return;
    }
    const title = (input.form?.elements.namedItem("title") as HTMLInputElement | null)?.value.trim() || file.name;
    try {
      const result = await upload.run((steps) =>
        destination === "library"
          ? uploadToVideoLibrary(file, { title }, steps)
          : uploadFileToStorage(field.kind === "captions" ? asCaptionsFile(file) : file, folder!, steps),
      );
      if (result) {
        setValue(result);
        toast({ title: t("newsroom.ui.fileUpload.done"), variant: "success" });
      }
    } catch (error) {
      toast({
        title: t("newsroom.ui.fileUpload.failed"),
        description: failureText(error, t("newsroom.ui.fileUpload.failed")),
        variant: "destructive",
        duration: 6000,
      });
    }
  }

  // The library's files of this field's kinds (a video field: the video library's videos, by their id).
  const libraryKinds: readonly LibraryFilter[] | null =
    field.kind === "video" ? ["video"] : field.kind === "audio" ? ["audio"] : field.kind === "file" ? ["image", "audio", "document", "video"] : null;

  async function cancel() {
    const guid = await upload.cancel();
    if (guid) await adminJson(`/api/admin/videos/${guid}`, undefined, "DELETE").catch(() => {});
  }

  return (
    <div className="space-y-2" data-uploading={upload.busy || undefined}>
      <div className="flex flex-wrap gap-2">
        <input
          id={id}
          name={field.name}
          type="text"
          inputMode="url"
          dir="ltr"
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          readOnly={upload.busy}
          maxLength={2048}
          placeholder={t(`newsroom.ui.mediaRefPlaceholder.${field.kind}`)}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          data-testid={`input-${field.name}`}
          className={`block h-11 min-w-0 flex-1 rounded-md border px-3 text-sm outline-none focus:ring-2 focus:ring-desert-500 ${invalid ? "border-red-600" : "border-sand-300"}`}
        />
        {openable && (
          <a
            href={value}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex h-11 shrink-0 items-center rounded-md border border-sand-300 px-3 text-sm hover:bg-sand-100"
          >
            {t("newsroom.ui.open")}
          </a>
        )}
        {canUpload &&
          (upload.busy ? (
            <button
              type="button"
              onClick={() => void cancel()}
              className="inline-flex h-11 shrink-0 items-center rounded-md border border-red-200 px-3 text-sm font-bold text-red-800 hover:bg-red-50"
              data-testid={`upload-cancel-${field.name}`}
            >
              {t("newsroom.ui.fileUpload.cancel")}
            </button>
          ) : (
            <label className="inline-flex h-11 shrink-0 cursor-pointer items-center rounded-md border border-desert-600 px-3 text-sm font-bold text-desert-700 focus-within:ring-2 focus-within:ring-desert-500 hover:bg-sand-100">
              {t(field.kind === "video" ? "newsroom.ui.fileUpload.chooseVideo" : "newsroom.ui.fileUpload.choose")}
              <input type="file" accept={accept} onChange={(e) => void chosen(e)} className="sr-only" data-testid={`upload-${field.name}`} />
            </label>
          ))}
      </div>
      {libraryKinds && !upload.busy && (
        <LibraryPickButton
          name={field.name}
          describedBy={describedBy}
          className="inline-flex h-11 items-center rounded-md border border-sand-300 px-3 text-sm font-bold hover:bg-sand-100"
          onChoose={(file) => setValue(file.url)}
          kinds={libraryKinds}
          folder={folder}
        />
      )}
      {upload.busy && <UploadProgress {...upload} label={t("newsroom.ui.fileUpload.progress")} testId={`upload-progress-${field.name}`} />}
    </div>
  );
}
