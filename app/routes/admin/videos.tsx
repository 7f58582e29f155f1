import { useEffect } from "react";
import { data } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/videos";
import { AdminError } from "~/components/admin/guard.tsx";
import { useToast } from "~/components/ui/toast.tsx";
import { authMeta } from "~/lib/auth-meta.ts";
import { formatDate, formatDuration } from "~/lib/format.ts";
import type { Language } from "~/lib/language.ts";
import { logger } from "../../../server/logger.ts";
import { requirePermission } from "../../../server/auth/session.server.ts";
import { getVideoLibrary, VIDEO_STATUS } from "../../../server/video/index.ts";

/**
 * The video library as the back-office sees it (back-office.md §2, "Video library management"): every video,
 * whatever its processing state, newest first. Read-only in this issue; uploads and deletes come with the
 * media pipeline.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "videos.manage");
  const library = getVideoLibrary();
  let loadFailed = false;
  let videos: {
    guid: string;
    title: string;
    description: string | null;
    dateUploaded: string;
    length: number;
    views: number;
    status: number;
    play: string | null;
  }[] = [];
  try {
    const items = await library.list();
    videos = items.map((v) => ({
      guid: v.guid,
      title: v.title,
      description: v.description,
      dateUploaded: v.dateUploaded,
      length: v.length,
      views: v.views,
      status: v.status,
      // §4: only a ready video (4) plays; the button opens its 720p file in a new tab.
      play: v.status === VIDEO_STATUS.ready ? (library.playbackFor(v).mp4 ?? null) : null,
    }));
  } catch (error) {
    logger.error({ err: error }, "admin video library failed");
    loadFailed = true;
  }
  return data({ videos, loadFailed }, { headers: { "Cache-Control": "private, no-store" } });
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

export default function AdminVideos({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const toast = useToast();
  const number = new Intl.NumberFormat(lang === "ar" ? "ar-SA-u-nu-latn" : lang);
  const { videos, loadFailed } = loaderData;
  useEffect(() => {
    if (loadFailed) toast({ title: t("newsroom.ui.videos.loadFailed"), variant: "destructive" });
  }, [loadFailed, t, toast]);

  return (
    <section className="space-y-5" data-testid="admin-videos">
      <h1 className="text-2xl font-bold">{t("newsroom.ui.videos.title")}</h1>
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
            const status = STATUS_KEYS[v.status] ?? { key: "unknown", style: "bg-sand-100 text-ink-soft" };
            return (
              <li
                key={v.guid}
                className="flex flex-col gap-3 rounded-lg border border-sand-200 bg-white p-4 shadow-sm"
                data-testid="admin-video"
                data-status={v.status}
              >
                <div className="flex items-start justify-between gap-3">
                  <h2 className="font-bold">{v.title}</h2>
                  <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-bold ${status.style}`}>
                    {t(`newsroom.ui.videos.status.${status.key}`)}
                  </span>
                </div>
                {v.description && <p className="line-clamp-2 text-sm text-ink-soft">{v.description}</p>}
                <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
                  <dt className="text-ink-soft">{t("newsroom.ui.videos.uploaded")}</dt>
                  <dd>{formatDate(v.dateUploaded, lang, "long")}</dd>
                  <dt className="text-ink-soft">{t("newsroom.ui.videos.duration")}</dt>
                  <dd dir="ltr" className="text-start">
                    {formatDuration(v.length)}
                  </dd>
                  <dt className="text-ink-soft">{t("newsroom.ui.videos.views")}</dt>
                  <dd>{number.format(v.views)}</dd>
                  <dt className="text-ink-soft">{t("newsroom.ui.videos.id")}</dt>
                  <dd dir="ltr" className="text-start font-mono" title={v.guid}>
                    {v.guid.slice(0, 8)}
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
