import { useRef, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useToast } from "#app/components/ui/toast.tsx";
import { asText } from "#domain/content-form.ts";
import { adminJson, uploadToVideoLibrary, VIDEO_STEPS } from "#app/lib/resumable-upload.ts";
import { Field, FILE_INPUT_CLASS, InputField, TextAreaField } from "#app/components/forms/field.tsx";
import { UploadProgress } from "./upload-progress.tsx";
import { uploadFailureText, useUpload } from "./use-upload.ts";

/**
 * The library's upload form (back-office.md §2): title, description, a video file; a progress bar with the
 * percentage and the phase; Upload disabled while a file goes, Cancel stopping it. The file goes by tus, so a
 * dropped connection or a reloaded page resumes where it stopped instead of starting again.
 */
export function VideoUploadForm({ onUploaded }: { onUploaded: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const form = useRef<HTMLFormElement>(null);
  const upload = useUpload({ started: VIDEO_STEPS.created, sent: VIDEO_STEPS.sent });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const title = asText(data.get("title")).trim();
    const description = asText(data.get("description")).trim();
    const file = data.get("file");
    if (!title || !(file instanceof File) || file.size === 0) {
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
      toast({
        title: t("newsroom.ui.videos.uploadFailedTitle"),
        description: uploadFailureText(error, t("newsroom.ui.videos.timedOut"), t("newsroom.ui.videos.uploadPutFailed")),
        variant: "destructive",
        duration: 6000,
      });
    }
    onUploaded();
  }

  async function cancel() {
    if (!upload.busy) return form.current?.reset();
    const guid = await upload.cancel();
    // A video without its file would wait in the list for ever.
    if (guid) await adminJson(`/api/admin/videos/${guid}`, undefined, "DELETE").catch(() => {});
  }

  const { busy } = upload;
  return (
    <form
      ref={form}
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
          required
          maxLength={200}
          dir="auto"
          disabled={busy}
          controlClassName="h-11"
          data-testid="video-title"
        />
        <Field id="video-file" label={t("newsroom.ui.videos.fieldFile")} requiredMark hint={<span dir="auto">{t("newsroom.ui.videos.fileHint")}</span>}>
          {(control) => (
            <input {...control} name="file" type="file" accept="video/*" required disabled={busy} className={FILE_INPUT_CLASS} data-testid="video-file" />
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
          onClick={() => void cancel()}
          className="rounded-md border border-sand-300 px-4 py-2 text-sm font-bold hover:bg-sand-100"
          data-testid="video-upload-cancel"
        >
          {t("newsroom.ui.videos.cancel")}
        </button>
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-desert-600 px-4 py-2 text-sm font-bold text-white hover:bg-desert-700 disabled:opacity-60"
          data-testid="video-upload-submit"
        >
          {t("newsroom.ui.videos.upload")}
        </button>
      </div>
    </form>
  );
}
