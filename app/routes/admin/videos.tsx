import { useEffect, useRef, useState } from "react";
import { data, Link, useRevalidator } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/videos";
import { AdminError } from "#app/components/admin/guard.tsx";
import { useToast } from "#app/components/ui/toast.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { formatDate, formatDuration } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { logger } from "#server/ops/logger.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { getVideoLibrary } from "#server/media/video/index.server.ts";
import { toAdminVideo, type AdminVideo } from "#server/media/video/admin.server.ts";
import { BadRequestError, UpstreamError } from "#server/http/errors.server.ts";
import { formAction, formSuccess } from "#server/http/form-action.server.ts";
import { type FormAnswer } from "#domain/form-answer.ts";
import { Notice } from "#app/components/forms/notice.tsx";
import { isVideoId } from "#domain/video-source.ts";
import { asText } from "#domain/content-form.ts";
import { DeleteDialog, DeleteStep, type DeleteTarget } from "#app/components/admin/delete-confirm.tsx";
import { VideoUploadForm } from "#app/components/admin/video-upload.tsx";
import { formatNumber } from "#domain/plural.ts";
import { UploadProgress } from "#app/components/admin/upload-progress.tsx";
import { useUpload, useUploadFailureText } from "#app/components/admin/use-upload.ts";
import { isSameFile, resumeVideoUpload, storedVideoUploads, uploadOffset, type StoredVideoUpload } from "#app/lib/resumable-upload.ts";

/**
 * The video library as the back-office sees it (back-office.md §2, "Video library management"): the upload
 * form (the file goes by tus, resumable), and every video whatever its processing state, newest first, with
 * Play once ready and delete after a confirmation.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "videos.manage");
  const library = getVideoLibrary();
  let loadFailed = false;
  let videos: AdminVideo[] = [];
  try {
    videos = (await library.list()).map((item) => toAdminVideo(library, item));
  } catch (error) {
    logger.error({ err: error }, "admin video library failed");
    loadFailed = true;
  }
  const url = new URL(request.url);
  const deleteId = url.searchParams.get("delete");
  const deleting = deleteId ? (videos.find((v) => v.guid === deleteId) ?? null) : null;
  return data(
    { videos, loadFailed, deleting: deleting && { id: deleting.guid, title: deleting.title } },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** The answer to a delete (domain/form-answer.ts): the page says "deleted" or "not deleted" whatever the code. */
type DeleteAnswer = FormAnswer<never, "BODY_TOO_LARGE" | "BAD_REQUEST" | "FAILED">;

/** Delete after the confirmation (the dialog with JavaScript, the `?delete=` step without). */
export async function action({ request }: Route.ActionArgs) {
  await requirePermission(request, "videos.manage");
  // A delete is a few hidden fields: the account forms' limit is plenty.
  return formAction<DeleteAnswer>(request, { limit: "account" }, async (form) => {
    const guid = asText(form.get("id"));
    if (form.get("intent") !== "delete" || !isVideoId(guid)) throw new BadRequestError("BAD_REQUEST", "Not a delete of a video.");
    try {
      await getVideoLibrary().delete(guid);
    } catch (error) {
      logger.error({ err: error, guid }, "video delete failed");
      throw new UpstreamError("FAILED", "The video library did not delete the video.", { cause: error });
    }
    return formSuccess<DeleteAnswer>();
  });
}

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "newsroom.ui.videos.title");

const STATUS_KEYS: Record<number, { key: string; style: string }> = {
  0: { key: "waiting", style: "bg-sand-100 text-ink-soft" },
  1: { key: "processing", style: "bg-amber-100 text-amber-900" },
  2: { key: "encoding", style: "bg-amber-100 text-amber-900" },
  3: { key: "finished", style: "bg-sky-100 text-sky-900" },
  4: { key: "ready", style: "bg-emerald-100 text-emerald-900" },
  5: { key: "failed", style: "bg-red-100 text-red-900" },
};

/** A waiting video (status 0) whose upload this browser began and did not finish: what the server holds of it. */
type Interrupted = StoredVideoUpload & { offset: number | null };

/** The unfinished uploads this browser remembers for the waiting videos, with the offset each has on the server. */
function useInterruptedUploads(waiting: string[]) {
  const [found, setFound] = useState<Map<string, Interrupted>>(new Map());
  const key = waiting.join(",");
  useEffect(() => {
    if (!key) return;
    let live = true;
    void (async () => {
      const stored = await storedVideoUploads().catch(() => new Map<string, StoredVideoUpload>());
      const next = new Map<string, Interrupted>();
      for (const guid of key.split(",")) {
        const upload = stored.get(guid);
        if (upload) next.set(guid, { ...upload, offset: await uploadOffset(upload.uploadUrl) });
      }
      if (live) setFound(next);
    })();
    return () => {
      live = false;
    };
  }, [key]);
  return found;
}

/** A size in megabytes, in the page's language («12.5 ميغابايت», «12,5 Mo»). */
function useMegabytes() {
  const { t, i18n } = useTranslation();
  return (bytes: number) => t("newsroom.ui.videos.mb", { n: formatNumber(i18n.language as Language, Math.round((bytes / 1048576) * 10) / 10) });
}

/**
 * The file of a video that has none yet (status 0), chosen again: «استئناف» asks for it, checks it is the same
 * file (name and size) as the interrupted upload this browser remembers, and sends it on from the offset the
 * server holds; with no upload remembered here, the file is sent from the start into the same video.
 */
function ResumeUpload({ guid, interrupted, onDone }: { guid: string; interrupted: Interrupted | null; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const toast = useToast();
  const megabytes = useMegabytes();
  const chooser = useRef<HTMLInputElement>(null);
  const upload = useUpload({ started: 0, sent: 99 });
  const failureText = useUploadFailureText(["video"]);

  async function chosen(file: File | undefined) {
    if (!file) return;
    if (interrupted && !isSameFile(file, interrupted)) {
      toast({
        title: t("newsroom.ui.videos.notSameFileTitle"),
        description: t("newsroom.ui.videos.notSameFile", { name: interrupted.filename, size: megabytes(interrupted.size) }),
        variant: "destructive",
        duration: 6000,
      });
      return;
    }
    try {
      if (await upload.run((steps) => resumeVideoUpload(file, guid, interrupted, steps))) {
        toast({ title: t("newsroom.ui.videos.uploadedTitle"), description: t("newsroom.ui.videos.uploadSucceeded"), variant: "success" });
      }
    } catch (error) {
      toast({
        title: t("newsroom.ui.videos.uploadFailedTitle"),
        description: failureText(error, t("newsroom.ui.videos.uploadPutFailed")),
        variant: "destructive",
        duration: 6000,
      });
    }
    onDone();
  }

  const percent = interrupted?.offset != null && interrupted.size > 0 ? Math.floor((interrupted.offset * 100) / interrupted.size) : null;
  return (
    <div className="space-y-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm" data-testid="video-interrupted">
      {interrupted ? (
        <>
          <p className="font-bold text-amber-900">{t("newsroom.ui.videos.interruptedText")}</p>
          <p data-testid="video-received" data-offset={interrupted.offset ?? undefined}>
            {percent !== null
              ? t("newsroom.ui.videos.received", {
                  sent: megabytes(interrupted.offset!),
                  total: megabytes(interrupted.size),
                  percent: `${formatNumber(lang, percent)}%`,
                })
              : t("newsroom.ui.videos.receivedUnknown")}
          </p>
          {percent !== null && (
            <progress max={100} value={percent} aria-label={t("newsroom.ui.videos.resumeProgress")} className="h-2 w-full accent-amber-600" />
          )}
        </>
      ) : (
        <p>{t("newsroom.ui.videos.waitingFile")}</p>
      )}
      {upload.busy ? (
        <UploadProgress {...upload} label={t("newsroom.ui.videos.resumeProgress")} testId="video-resume-progress" />
      ) : (
        <>
          <input
            ref={chooser}
            type="file"
            accept={interrupted?.filetype || "video/*"}
            hidden
            tabIndex={-1}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = "";
              void chosen(file);
            }}
            data-testid="video-resume-file"
          />
          <button
            type="button"
            onClick={() => chooser.current?.click()}
            className="rounded-md bg-desert-600 px-4 py-2 text-sm font-bold text-white hover:bg-desert-700"
            aria-describedby={interrupted ? `resume-${guid}` : undefined}
            data-testid="video-resume"
          >
            {t("newsroom.ui.videos.resume")}
          </button>
          {interrupted && (
            <p id={`resume-${guid}`} className="text-xs text-ink-soft">
              {t("newsroom.ui.videos.resumeFile", { name: "" })}
              <bdi dir="auto" className="font-bold">
                {interrupted.filename}
              </bdi>
            </p>
          )}
        </>
      )}
    </div>
  );
}

/** While a video is being processed (1–3) the list refreshes itself, so the editor sees it become ready. */
const PROCESSING_POLL_MS = 3000;

export default function AdminVideos({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const toast = useToast();
  const revalidator = useRevalidator();
  const number = { format: (n: number) => formatNumber(lang, n) };
  const { videos, loadFailed } = loaderData;
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  // The server's answer to a delete closes the dialog.
  const [answered, setAnswered] = useState(actionData);
  if (answered !== actionData) {
    setAnswered(actionData);
    setDeleting(null);
  }
  useEffect(() => {
    if (loadFailed) toast({ title: t("newsroom.ui.videos.loadFailed"), variant: "destructive" });
  }, [loadFailed, t, toast]);
  useEffect(() => {
    if (!actionData) return;
    toast(
      actionData.ok
        ? { title: t("newsroom.ui.videos.deletedTitle"), description: t("newsroom.ui.videos.deleted"), variant: "success" }
        : { title: t("newsroom.ui.videos.deleteFailedTitle"), description: t("newsroom.ui.videos.deleteFailed"), variant: "destructive" },
    );
  }, [actionData, t, toast]);
  const processing = videos.some((v) => v.status >= 1 && v.status <= 3);
  const interrupted = useInterruptedUploads(videos.filter((v) => v.status === 0).map((v) => v.guid.toLowerCase()));
  useEffect(() => {
    if (!processing) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") void revalidator.revalidate();
    }, PROCESSING_POLL_MS);
    return () => clearInterval(timer);
  }, [processing, revalidator]);

  return (
    <section className="space-y-5" data-testid="admin-videos">
      <h1 className="text-2xl font-bold">{t("newsroom.ui.videos.title")}</h1>
      {loaderData.deleting && <DeleteStep target={loaderData.deleting} back="/admin/videos" />}
      {actionData && (
        <noscript>
          <Notice tone={actionData.ok ? "success" : "error"}>{t(actionData.ok ? "newsroom.ui.videos.deleted" : "newsroom.ui.videos.deleteFailed")}</Notice>
        </noscript>
      )}
      <VideoUploadForm onUploaded={() => void revalidator.revalidate()} />
      <DeleteDialog target={deleting} back="/admin/videos" onClose={() => setDeleting(null)} />
      {loadFailed && (
        <p role="alert" className="rounded-md border border-s-4 border-red-600 bg-red-50 px-4 py-3 text-sm text-red-900">
          {t("newsroom.ui.videos.loadFailed")}
        </p>
      )}
      {videos.length === 0 ? (
        <p className="rounded-lg border border-dashed border-sand-300 bg-white px-4 py-10 text-center text-ink-soft" data-testid="videos-empty">
          {t("newsroom.ui.videos.empty")}
        </p>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2" data-testid="video-grid">
          {videos.map((v) => {
            const stopped = v.status === 0 ? (interrupted.get(v.guid.toLowerCase()) ?? null) : null;
            const status = stopped
              ? { key: "interrupted", style: "bg-amber-100 text-amber-900" }
              : (STATUS_KEYS[v.status] ?? { key: "unknown", style: "bg-sand-100 text-ink-soft" });
            return (
              <li
                key={v.guid}
                className="flex flex-col gap-3 rounded-lg border border-sand-200 bg-white p-4 shadow-sm"
                data-testid="admin-video"
                data-status={v.status}
                data-interrupted={stopped ? "" : undefined}
              >
                <div className="flex items-start justify-between gap-3">
                  <h2 className="font-bold" dir="auto">
                    {v.title}
                  </h2>
                  <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-bold ${status.style}`} data-testid="video-status">
                    {t(status.key === "interrupted" ? "newsroom.ui.videos.interrupted" : `newsroom.ui.videos.status.${status.key}`)}
                  </span>
                </div>
                {v.thumbnail && v.status === 4 && (
                  <img src={v.thumbnail} alt="" width={640} height={360} loading="lazy" className="aspect-video w-full rounded-md bg-sand-100 object-cover" />
                )}
                {v.description && <p className="line-clamp-2 text-sm text-ink-soft">{v.description}</p>}
                {v.status === 5 && v.failure_reason && (
                  <p className="text-sm text-red-800" data-testid="video-failure">
                    {t("newsroom.ui.videos.failureReason", { reason: v.failure_reason })}
                  </p>
                )}
                {v.status === 0 && <ResumeUpload guid={v.guid} interrupted={stopped} onDone={() => void revalidator.revalidate()} />}
                {/* Every value starts where its label's column starts, in either direction; the Latin runs
                    (a duration, an id) are isolated left to right inside it rather than turning the cell. */}
                <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-start text-sm" data-testid="video-details">
                  <dt className="text-ink-soft">{t("newsroom.ui.videos.uploaded")}</dt>
                  <dd className="text-start">
                    <bdi>{formatDate(v.date_uploaded, lang, "long")}</bdi>
                  </dd>
                  <dt className="text-ink-soft">{t("newsroom.ui.videos.duration")}</dt>
                  <dd className="text-start">
                    <bdi dir="ltr" className="tabular-nums" data-testid="video-duration">
                      {formatDuration(v.length, lang)}
                    </bdi>
                  </dd>
                  <dt className="text-ink-soft">{t("newsroom.ui.videos.views")}</dt>
                  <dd className="text-start">
                    <bdi className="tabular-nums">{number.format(v.views)}</bdi>
                  </dd>
                  <dt className="text-ink-soft">{t("newsroom.ui.videos.id")}</dt>
                  <dd className="text-start">
                    <bdi dir="ltr" className="font-mono" title={v.guid}>
                      {v.guid.slice(0, 8)}
                    </bdi>
                  </dd>
                </dl>
                <div>
                  {v.play ? (
                    <a
                      href={v.play}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="inline-block rounded-md bg-desert-600 px-4 py-2 text-sm font-bold text-white hover:bg-desert-700"
                      data-testid="video-play"
                    >
                      {t("newsroom.ui.videos.play")}
                    </a>
                  ) : (
                    <button type="button" disabled className="rounded-md bg-sand-200 px-4 py-2 text-sm font-bold text-ink-soft" data-testid="video-play">
                      {t("newsroom.ui.videos.play")}
                    </button>
                  )}
                  <Link
                    to={`?delete=${v.guid}`}
                    preventScrollReset
                    onClick={(event) => {
                      event.preventDefault();
                      setDeleting({ id: v.guid, title: v.title });
                    }}
                    className="ms-2 inline-block rounded-md border border-red-200 px-4 py-2 text-sm font-bold text-red-800 hover:bg-red-50"
                    data-testid="video-delete"
                  >
                    {t("newsroom.ui.videos.delete")}
                  </Link>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
