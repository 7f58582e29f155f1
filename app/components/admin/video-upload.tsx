import { useRef, useState, type FormEvent } from "react";
import { Trans } from "react-i18next";
import { useTranslation } from "#app/lib/i18n.ts";
import { useToast } from "#app/components/ui/toast.tsx";
import { asText } from "#domain/content-form.ts";
import { uploadToVideoLibrary, VIDEO_STEPS } from "#app/lib/resumable-upload.ts";
import { Field, InputField, TextAreaField } from "#app/components/forms/field.tsx";
import { FileInput } from "#app/components/forms/file-input.tsx";
import { UploadProgress } from "./upload-progress.tsx";
import { clearFileInput, useUpload, useUploadFailureText } from "./use-upload.ts";

/** The fields the form requires (back-office.md: title and file), in the order they are shown. */
type Required = "title" | "file";

/**
 * The formats and the size limit, each kept whole and left to right inside the sentence of the page's language
 * (in Arabic the Latin run would otherwise carry the parenthesis and the number to the wrong side).
 */
export function VideoFileHint() {
  return <Trans i18nKey="newsroom.ui.videos.fileHint" components={{ f: <bdi dir="ltr" />, s: <bdi dir="ltr" /> }} />;
}

/**
 * The library's upload form (back-office.md §2): title, description, a video file; a progress bar with the
 * percentage and the phase; Upload and Cancel both disabled while a file goes. Empty required fields are the
 * spec's toast «خطأ» / «يرجى ملء جميع الحقول المطلوبة» (never the browser's own bubble, in the browser's
 * language): the fields are marked and the first takes the focus. The file goes by tus, so a dropped
 * connection or a reloaded page resumes where it stopped instead of starting again.
 */
export function VideoUploadForm({ onUploaded }: { onUploaded: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const form = useRef<HTMLFormElement>(null);
  const upload = useUpload({ started: VIDEO_STEPS.created, sent: VIDEO_STEPS.sent });
  const failureText = useUploadFailureText(["video"]);
  const [missing, setMissing] = useState<Required[]>([]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const title = asText(data.get("title")).trim();
    const description = asText(data.get("description")).trim();
    const file = data.get("file");
    const empty: Required[] = [];
    if (!title) empty.push("title");
    if (!(file instanceof File) || file.size === 0) empty.push("file");
    setMissing(empty);
    if (empty.length > 0 || !(file instanceof File)) {
      document.getElementById(empty[0] === "title" ? "video-title" : "video-file")?.focus();
      toast({ title: t("newsroom.ui.videos.missingFieldsTitle"), description: t("newsroom.ui.videos.missingFields"), variant: "destructive" });
      return;
    }
    try {
      const guid = await upload.run((steps) => uploadToVideoLibrary(file, { title, description }, steps));
      if (guid) {
        toast({ title: t("newsroom.ui.videos.uploadedTitle"), description: t("newsroom.ui.videos.uploadSucceeded"), variant: "success" });
        form.current?.reset();
      }
    } catch (error) {
      // A file the server refused (it said why, with a code) is not offered again; one lost on the way stays, to retry.
      if ((error as { code?: unknown } | null)?.code) clearFileInput(form.current?.querySelector<HTMLInputElement>('input[name="file"]'));
      toast({
        title: t("newsroom.ui.videos.uploadFailedTitle"),
        description: failureText(error, t("newsroom.ui.videos.uploadPutFailed")),
        variant: "destructive",
        duration: 6000,
      });
    }
    onUploaded();
  }

  /** Cancel empties the form; while a file goes it is disabled, as the spec says. */
  function cancel() {
    setMissing([]);
    form.current?.reset();
  }

  /** A field marked empty is checked again as it is filled. */
  function changed(field: Required, filled: boolean) {
    if (filled && missing.includes(field)) setMissing(missing.filter((f) => f !== field));
  }

  const { busy } = upload;
  const invalid = (field: Required) => missing.includes(field);
  return (
    <form
      ref={form}
      noValidate
      onSubmit={(event) => void submit(event)}
      className="space-y-4 rounded-lg border border-sand-200 bg-white p-4 shadow-sm"
      data-testid="video-upload-form"
      data-state={upload.phase}
      aria-busy={busy || undefined}
    >
      <h2 className="text-lg font-bold">{t("newsroom.ui.videos.uploadHeading")}</h2>
      <div className="grid gap-4 md:grid-cols-2">
        <InputField
          id="video-title"
          name="title"
          label={t("newsroom.ui.videos.fieldTitle")}
          requiredMark
          aria-required
          maxLength={200}
          dir="auto"
          disabled={busy}
          controlClassName="h-11"
          error={invalid("title") ? "validation.required" : undefined}
          errorTestId="video-title-error"
          onChange={(e) => changed("title", e.currentTarget.value.trim() !== "")}
          data-testid="video-title"
        />
        <Field
          id="video-file"
          label={t("newsroom.ui.videos.fieldFile")}
          requiredMark
          keepHint
          hint={<VideoFileHint />}
          error={invalid("file") ? "validation.required" : undefined}
          errorTestId="video-file-error"
        >
          {({ className: _textBoxLook, ...control }) => (
            <FileInput
              {...control}
              name="file"
              accept="video/*"
              aria-required
              disabled={busy}
              onChange={(e) => changed("file", (e.currentTarget.files?.length ?? 0) > 0)}
              data-testid="video-file"
            />
          )}
        </Field>
      </div>
      <TextAreaField
        id="video-description"
        name="description"
        label={t("newsroom.ui.videos.fieldDescription")}
        rows={2}
        maxLength={5000}
        dir="auto"
        disabled={busy}
        controlClassName="py-2"
        data-testid="video-description"
      />
      {busy && <UploadProgress {...upload} label={t("newsroom.ui.videos.progress")} testId="video-upload-progress" />}
      <div className="flex justify-end gap-2">
        <button
          type="button"
          onClick={cancel}
          disabled={busy}
          className="rounded-md border border-sand-300 px-4 py-2 text-sm font-bold hover:bg-sand-100 disabled:cursor-not-allowed disabled:opacity-60"
          data-testid="video-upload-cancel"
        >
          {t("newsroom.ui.videos.cancel")}
        </button>
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-desert-600 px-4 py-2 text-sm font-bold text-white hover:bg-desert-700 disabled:cursor-not-allowed disabled:opacity-60"
          data-testid="video-upload-submit"
        >
          {t("newsroom.ui.videos.upload")}
        </button>
      </div>
    </form>
  );
}
