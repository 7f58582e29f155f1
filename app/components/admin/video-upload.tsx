import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useToast } from "~/components/ui/toast.tsx";
import { asText } from "~/lib/content-form.ts";
import { findPreviousUpload, startResumableUpload, UPLOAD_TIMEOUT_MESSAGE, type ResumableUpload } from "~/lib/resumable-upload.ts";

/** back-office.md §4: 25 once the video record exists, 75 once the file is sent, 100 at the end. */
const STEP_CREATED = 25;
const STEP_SENT = 75;
/** The local library's tus endpoint: where an unfinished upload of the same file is looked for. */
const LOCAL_TUS_ENDPOINT = "/api/admin/videos/tus";

type Phase = "idle" | "creating" | "uploading" | "finishing";

type Created = { guid: string; tus_endpoint: string; tus_headers: Record<string, string>; tus_metadata: Record<string, string> };

async function postJson<T>(url: string, body: unknown, method = "POST"): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json().catch(() => ({}))) as { message?: string };
  if (!res.ok) throw new Error(answer.message ?? `HTTP ${res.status}`);
  return answer as T;
}

/**
 * The library's upload form (back-office.md §2): title, description, a video file; a progress bar with the
 * percentage and the phase; Upload disabled while a file goes, Cancel stopping it. The file goes by tus, so a
 * dropped connection or a reloaded page resumes where it stopped instead of starting again.
 */
export function VideoUploadForm({ onUploaded }: { onUploaded: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const form = useRef<HTMLFormElement>(null);
  const current = useRef<{ upload: ResumableUpload | null; guid: string | null }>({ upload: null, guid: null });
  const [phase, setPhase] = useState<Phase>("idle");
  const [progress, setProgress] = useState(0);
  const [resuming, setResuming] = useState(false);
  const [offline, setOffline] = useState(false);
  const busy = phase !== "idle";

  useEffect(() => {
    const update = () => setOffline(!navigator.onLine);
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);

  const reset = () => {
    current.current = { upload: null, guid: null };
    setPhase("idle");
    setProgress(0);
    setResuming(false);
  };

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
    setPhase("creating");
    setProgress(0);
    try {
      // The same file, half sent before a reload: carry on with its video instead of making a second one.
      const previous = await findPreviousUpload(file, LOCAL_TUS_ENDPOINT).catch(() => null);
      let target: Created;
      if (previous?.metadata.guid) {
        setResuming(true);
        target = await postJson<Created>(`/api/admin/videos/${previous.metadata.guid}/upload`, {});
      } else {
        target = await postJson<Created>("/api/admin/videos", { title, description });
      }
      current.current.guid = target.guid;
      setProgress(STEP_CREATED);
      setPhase("uploading");
      const upload = await startResumableUpload(
        file,
        { endpoint: target.tus_endpoint, headers: target.tus_headers, metadata: target.tus_metadata },
        { onProgress: (sent, total) => setProgress(STEP_CREATED + Math.floor(((STEP_SENT - STEP_CREATED) * sent) / Math.max(total, 1))) },
      );
      current.current.upload = upload;
      await upload.done;
      setProgress(STEP_SENT);
      setPhase("finishing");
      setProgress(100);
      toast({ title: t("newsroom.ui.videos.uploadedTitle"), description: t("newsroom.ui.videos.uploaded"), variant: "success" });
      form.current?.reset();
      onUploaded();
      reset();
    } catch (error) {
      const cancelled = error instanceof DOMException && error.name === "AbortError";
      if (!cancelled) {
        const message = error instanceof Error ? error.message : "";
        toast({
          title: t("newsroom.ui.videos.uploadFailedTitle"),
          description: message === UPLOAD_TIMEOUT_MESSAGE ? t("newsroom.ui.videos.timedOut") : message || t("newsroom.ui.videos.uploadPutFailed"),
          variant: "destructive",
          duration: 6000,
        });
      }
      onUploaded();
      reset();
    }
  }

  async function cancel() {
    const { upload, guid } = current.current;
    if (upload) await upload.cancel();
    // A video without its file would wait in the list for ever.
    if (guid) await postJson(`/api/admin/videos/${guid}`, undefined, "DELETE").catch(() => {});
    if (!upload) {
      form.current?.reset();
      reset();
    }
  }

  const phaseText = phase === "creating" ? "phaseCreating" : phase === "uploading" ? "phaseUploading" : "phaseFinishing";
  return (
    <form
      ref={form}
      onSubmit={(event) => void submit(event)}
      className="space-y-4 rounded-lg border border-sand-200 bg-white p-4 shadow-sm"
      data-testid="video-upload-form"
      data-state={phase}
      aria-busy={busy || undefined}
    >
      <h2 className="text-lg font-bold">{t("newsroom.ui.videos.uploadHeading")}</h2>
      <div className="grid gap-4 md:grid-cols-2">
        <label className="block text-sm font-bold">
          {t("newsroom.ui.videos.fieldTitle")} <span aria-hidden="true">*</span>
          <input
            name="title"
            required
            maxLength={200}
            dir="auto"
            disabled={busy}
            className="mt-1 block h-11 w-full rounded-md border border-sand-300 px-3 font-normal"
            data-testid="video-title"
          />
        </label>
        <label className="block text-sm font-bold">
          {t("newsroom.ui.videos.fieldFile")} <span aria-hidden="true">*</span>
          <input
            name="file"
            type="file"
            accept="video/*"
            required
            disabled={busy}
            aria-describedby="video-file-hint"
            className="mt-1 block w-full text-sm font-normal"
            data-testid="video-file"
          />
          <span id="video-file-hint" className="mt-1 block text-xs font-normal text-ink-soft" dir="auto">
            {t("newsroom.ui.videos.fileHint")}
          </span>
        </label>
      </div>
      <label className="block text-sm font-bold">
        {t("newsroom.ui.videos.fieldDescription")}
        <textarea
          name="description"
          rows={2}
          maxLength={5000}
          dir="auto"
          disabled={busy}
          className="mt-1 block w-full rounded-md border border-sand-300 px-3 py-2 font-normal"
          data-testid="video-description"
        />
      </label>
      {busy && (
        <div className="space-y-1" data-testid="video-upload-progress">
          <div className="flex justify-between text-sm">
            <span role="status">{t(`newsroom.ui.videos.${phaseText}`)}</span>
            <span dir="ltr" data-testid="video-upload-percent">
              {progress}%
            </span>
          </div>
          <progress max={100} value={progress} aria-label={t("newsroom.ui.videos.progress")} className="h-2 w-full accent-desert-600" />
          {resuming && <p className="text-xs text-ink-soft">{t("newsroom.ui.videos.resumeHint")}</p>}
          {offline && (
            <p role="alert" className="text-xs text-amber-900">
              {t("newsroom.ui.videos.offline")}
            </p>
          )}
        </div>
      )}
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
