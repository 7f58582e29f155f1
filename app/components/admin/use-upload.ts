import { useEffect, useRef, useState } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import { UPLOAD_TIMEOUT_MESSAGE, type ResumableUpload, type UploadSteps } from "#app/lib/resumable-upload.ts";
import { allowedTypes, UNSUPPORTED_FILE_KEY, type UploadTypeKind } from "#domain/upload-types.ts";

export type UploadPhase = "idle" | "creating" | "uploading" | "finishing";

/** Where the bar stands at each step: the video library's 25/75/100, a plain file's 10/90/100 (back-office.md §9). */
export type ProgressSteps = { started: number; sent: number };

/**
 * The state of one resumable upload on a screen (the video library's form, a content form's file field): its
 * phase, the percentage, whether it resumes an earlier one, whether the browser is offline, and Cancel. `run`
 * takes the upload to do, given the steps to report; it answers what the upload resolved with, or null when it
 * was cancelled (the failure's message is thrown, the spec's time-out words included).
 */
export function useUpload(progressSteps: ProgressSteps) {
  const current = useRef<{ upload: ResumableUpload | null; cancelled: boolean; guid: string | null }>({ upload: null, cancelled: false, guid: null });
  const [phase, setPhase] = useState<UploadPhase>("idle");
  const [progress, setProgress] = useState(0);
  const [resuming, setResuming] = useState(false);
  const [offline, setOffline] = useState(false);

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
    current.current = { upload: null, cancelled: false, guid: null };
    setPhase("idle");
    setProgress(0);
    setResuming(false);
  };

  async function run<T>(upload: (steps: UploadSteps) => Promise<T>): Promise<T | null> {
    current.current = { upload: null, cancelled: false, guid: null };
    setPhase("creating");
    setProgress(0);
    try {
      const result = await upload({
        onStarted: ({ guid, resuming: resumed }) => {
          current.current.guid = guid ?? null;
          setResuming(resumed);
          setProgress(progressSteps.started);
          setPhase("uploading");
        },
        onProgress: (sent, total) =>
          setProgress(progressSteps.started + Math.floor(((progressSteps.sent - progressSteps.started) * sent) / Math.max(total, 1))),
        onUpload: (running) => (current.current.upload = running),
      });
      setPhase("finishing");
      setProgress(100);
      return result;
    } catch (error) {
      if (current.current.cancelled || (error instanceof DOMException && error.name === "AbortError")) return null;
      throw error;
    } finally {
      reset();
    }
  }

  /** Stops the upload; answers the id of the video it had made, for the caller to delete. */
  async function cancel(): Promise<string | null> {
    const { upload, guid } = current.current;
    current.current.cancelled = true;
    if (upload) await upload.cancel();
    return guid;
  }

  return { phase, progress, resuming, offline, busy: phase !== "idle", run, cancel };
}

/** Arabic letters: the API's own words, which only an Arabic page shows as they are. */
const ARABIC = /[\u0600-\u06FF]/;

/**
 * The words of a failed upload in the page's language (issue 46): the spec's time-out message; a refused type
 * with the types these `kinds` take (the server's code UNSUPPORTED_FILE, whatever its words); the server's own
 * words when the page is Arabic (the API answers in Arabic), else `fallback`, so that no Arabic is left in a
 * French or English back-office.
 */
export function useUploadFailureText(kinds: readonly UploadTypeKind[]) {
  const { t, i18n } = useTranslation();
  return (error: unknown, fallback: string): string => {
    const message = error instanceof Error ? error.message : "";
    if (message === UPLOAD_TIMEOUT_MESSAGE) return t("newsroom.ui.videos.timedOut");
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "UNSUPPORTED_FILE") return t(UNSUPPORTED_FILE_KEY, { types: allowedTypes(kinds) });
    if (code === "NOT_WEBVTT") return t("newsroom.v.captionsNotVtt");
    if (!message || (i18n.language !== "ar" && ARABIC.test(message))) return fallback;
    return message;
  };
}

/** Empties a file input whose file was refused, and tells its listeners (the name shown beside it goes too). */
export function clearFileInput(input: HTMLInputElement | null | undefined) {
  if (!input?.value) return;
  input.value = "";
  input.dispatchEvent(new Event("change", { bubbles: true }));
}
