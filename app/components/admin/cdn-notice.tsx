import { useCount, useTranslation } from "#app/lib/i18n.ts";

/** When readers see a saved change, as the editor's loader reads it (server/cdn/notice.server.ts cdnNoticeOf). */
export type CdnNoticeSummary =
  { driver: "none"; seconds: number } | { driver: "varnish" | "bunny" | "cloudflare"; last: "none" | "ok" | "pending" | "retrying" | "failed" };

/**
 * On the item's edit page: with a purge of the shared cache, readers see a save within seconds, unless the latest
 * purge failed (then it says so); without one, within the shared cache's time-to-live.
 */
export function CdnNotice({ notice }: { notice: CdnNoticeSummary | null }) {
  const { t } = useTranslation();
  const counted = useCount();
  if (!notice) return null;
  const state = notice.driver === "none" ? "ttl" : notice.last === "retrying" || notice.last === "failed" ? notice.last : "purged";
  const text = notice.driver === "none" ? counted("cdnNotice.ttl", notice.seconds) : t(`cdnNotice.${state}`);
  const warning = state === "retrying" || state === "failed";
  return (
    <div
      role="status"
      data-testid="cdn-notice"
      data-state={state}
      className={`rounded-md border px-4 py-3 text-sm ${warning ? "border-red-300 bg-red-50" : "border-desert-300 bg-sand-50"}`}
    >
      <p className="font-bold">{t("cdnNotice.title")}</p>
      <p>{text}</p>
    </div>
  );
}
