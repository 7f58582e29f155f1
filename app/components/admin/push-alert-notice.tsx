import { useCount, useTranslation } from "#app/lib/i18n.ts";

/** An item's breaking-news alert as the editor's loader reads it (server/push/alerts.server.ts pushAlertOf). */
export type PushAlertSummary = {
  state: "queued" | "sending" | "sent" | "held";
  sent: number;
  failed: number;
  removed: number;
  finishedAt: string | null;
  /** The hour's cap (PUSH_ALERTS_PER_HOUR) and the alerts started in the last hour (decision 0134). */
  cap?: { perHour: number; lastHour: number };
};

/**
 * On the item's edit page: whether its alert is on its way, being sent, or how many subscribers got it
 * («أُرسل التنبيه إلى N مشتركًا»), with the failures and expired subscriptions when there were any; held when the
 * hour's cap of alerts was reached, and how many of the cap went out in the last hour.
 */
export function PushAlertNotice({ alert }: { alert: PushAlertSummary | null }) {
  const { t } = useTranslation();
  const counted = useCount();
  if (!alert) return null;
  const text =
    alert.state === "queued"
      ? t("push.alert.queued")
      : alert.state === "sending"
        ? t("push.alert.sending")
        : alert.state === "held"
          ? t("push.alert.held", { perHour: alert.cap?.perHour ?? "" })
          : counted("push.alert.sent", alert.sent);
  return (
    <div role="status" data-testid="push-alert" data-state={alert.state} className="rounded-md border border-desert-300 bg-sand-50 px-4 py-3 text-sm">
      <p className="font-bold">{t("push.alert.title")}</p>
      <p data-testid="push-alert-text">{text}</p>
      {alert.state !== "queued" && alert.state !== "held" && (alert.failed > 0 || alert.removed > 0) && (
        <p className="text-ink-soft" data-testid="push-alert-problems">
          {t("push.alert.problems", { failed: alert.failed, removed: alert.removed })}
        </p>
      )}
      {alert.cap && (
        <p className="text-ink-soft" data-testid="push-alert-cap" data-last-hour={alert.cap.lastHour} data-per-hour={alert.cap.perHour}>
          {t("push.alert.lastHour", { lastHour: alert.cap.lastHour, perHour: alert.cap.perHour })}
        </p>
      )}
    </div>
  );
}
