/**
 * Workflow states and review in the back-office (decision 0138): the note a story was sent back with (in its
 * editor), the dashboard's review queue (oldest first) and an account's notices (submitted, sent back, published).
 */
import { Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import type { StaffNoticeView } from "#domain/workflow.ts";

export type ReviewNote = { note: string; by: string | null; at: string | null };

/** In the editor of a story sent back: who sent it back, when, and their note. */
export function ReviewNoteNotice({ review }: { review: ReviewNote }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  return (
    <div
      role="note"
      data-testid="review-note"
      className="rounded-md border border-s-4 border-rose-300 border-s-rose-600 bg-rose-50 px-4 py-3 text-sm text-rose-950"
    >
      <p className="font-bold">{t("workflow.sentBackBy", { name: review.by ?? "—", date: review.at ? formatDate(review.at, lang, "dateTime") : "" })}</p>
      <p className="mt-1 whitespace-pre-line" dir="auto" data-testid="review-note-text">
        {review.note}
      </p>
    </div>
  );
}

export type QueuedItemView = { type: string; segment: string; id: number; title: string; writer: string | null; submitted_at: string };

/** The dashboard's review queue: what waits for an editor, oldest submission first. */
export function ReviewQueue({ items }: { items: readonly QueuedItemView[] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  return (
    <section aria-labelledby="review-queue-title" data-testid="review-queue" className="rounded-lg border border-sand-200 bg-white p-4 shadow-sm">
      <h2 id="review-queue-title" className="text-lg font-bold">
        {t("workflow.queue.title")}
      </h2>
      {items.length === 0 ? (
        <p className="mt-2 text-sm text-ink-soft" data-testid="review-queue-empty">
          {t("workflow.queue.empty")}
        </p>
      ) : (
        <ol className="mt-3 divide-y divide-sand-200">
          {items.map((item) => (
            <li key={`${item.type}:${item.id}`} className="py-2" data-testid="review-queue-item" data-type={item.type} data-id={item.id}>
              <Link to={`/admin/${item.segment}/${item.id}`} className="font-bold text-desert-700 hover:underline" dir="auto">
                {item.title}
              </Link>
              <p className="text-sm text-ink-soft">
                {t(`newsroom.s.${item.type}`)} · {item.writer ?? "—"} ·{" "}
                <time dateTime={item.submitted_at}>{formatDate(item.submitted_at, lang, "dateTime")}</time>
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export type NoticeView = StaffNoticeView;

/** An account's notices, newest first; those not seen before this visit marked «new». */
export function Notices({ notices, unread }: { notices: readonly NoticeView[]; unread: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  return (
    <section aria-labelledby="notices-title" data-testid="notices" data-unread={unread} className="rounded-lg border border-sand-200 bg-white p-4 shadow-sm">
      <h2 id="notices-title" className="text-lg font-bold">
        {t("workflow.notices.title")}
        {unread > 0 && (
          <span className="ms-2 rounded-full bg-desert-700 px-2 py-0.5 text-xs text-white" data-testid="notices-unread">
            {t("workflow.notices.unread", { n: unread })}
          </span>
        )}
      </h2>
      {notices.length === 0 ? (
        <p className="mt-2 text-sm text-ink-soft">{t("workflow.notices.empty")}</p>
      ) : (
        <ul className="mt-3 divide-y divide-sand-200">
          {notices.map((n) => (
            <li key={n.id} className="py-2 text-sm" data-testid="notice" data-kind={n.kind} data-read={n.read ? "true" : "false"}>
              {!n.read && <span className="me-2 rounded bg-desert-100 px-1.5 py-0.5 text-xs font-bold text-desert-900">{t("workflow.notices.new")}</span>}
              {t(`workflow.notices.${n.kind}`, { name: n.actor_name ?? "—" })}{" "}
              <Link to={`/admin/${n.segment}/${n.item_id}`} className="font-bold text-desert-700 hover:underline" dir="auto">
                {n.title}
              </Link>
              {n.note && (
                <p className="mt-1 whitespace-pre-line text-ink" dir="auto" data-testid="notice-note">
                  {n.note}
                </p>
              )}
              <p className="text-xs text-ink-soft">
                <time dateTime={n.created_at}>{formatDate(n.created_at, lang, "dateTime")}</time>
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
