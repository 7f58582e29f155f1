import { useTranslation } from "#app/lib/i18n.ts";

/** back-office.md §4: new 'جديدة', read 'مقروءة', replied 'تم الرد', anything else 'غير محدد'. */
const STATUS_TONES: Record<string, string> = {
  new: "bg-red-100 text-red-900",
  read: "bg-sand-200 text-ink",
  replied: "bg-emerald-100 text-emerald-900",
};

export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = status in STATUS_TONES;
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-bold ${known ? STATUS_TONES[status] : "bg-sand-100 text-ink-soft"}`}
      data-testid="status-badge"
    >
      {t(known ? `contacts.status.${status}` : "contacts.status.unknown")}
    </span>
  );
}

export function KindBadge({ kind }: { kind: string }) {
  const { t } = useTranslation();
  if (kind !== "article_proposal") return null;
  return (
    <span className="inline-block rounded-full bg-palm-600/10 px-2.5 py-0.5 text-xs font-bold text-palm-800" data-testid="kind-badge">
      {t("contacts.kind.article_proposal")}
    </span>
  );
}

/** An address for a mailto: URL that cannot smuggle in extra headers (a sender may type "a@b.c?bcc=…"). */
export const mailtoAddress = (email: string) => email.split("@").map(encodeURIComponent).join("@");

/** back-office.md §2: reply by e-mail, the subject prefixed 'Re:'. */
export const replyHref = (email: string, subject: string) => `mailto:${mailtoAddress(email)}?subject=${encodeURIComponent(`Re: ${subject}`)}`;
