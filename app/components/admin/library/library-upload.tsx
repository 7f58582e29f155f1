import { useRef, useState, type FormEvent } from "react";
import { useRevalidator } from "react-router";
import { UploadProgress } from "#app/components/admin/upload-progress.tsx";
import { useUpload, useUploadFailureText } from "#app/components/admin/use-upload.ts";
import { FileInput } from "#app/components/forms/file-input.tsx";
import { useToast } from "#app/components/ui/toast.tsx";
import { useCount, useTranslation } from "#app/lib/i18n.ts";
import { uploadFileToStorage } from "#app/lib/resumable-upload.ts";
import { LIBRARY_ACCEPT, LIBRARY_FOLDER } from "#domain/library.ts";

/** Upload bar steps of a plain file (use-upload.ts): 10 once started, 90 once sent, 100 when stored. */
const FILE_STEPS = { started: 10, sent: 90 };

/** Several files into the library, one after the other, each by tus with its progress. */
export function LibraryUpload() {
  const { t } = useTranslation();
  const count = useCount();
  const toast = useToast();
  const revalidator = useRevalidator();
  const upload = useUpload(FILE_STEPS);
  const failureText = useUploadFailureText(["image", "audio", "document"]);
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
        const reason = failureText(error, t("library.unsupported"));
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
