import { useTranslation } from "react-i18next";
import { useCount } from "#app/lib/i18n.ts";

/** An item's breaking-news alert as the editor's loader reads it (server/push/alerts.server.ts pushAlertOf). */
export type PushAlertSummary = { state: "queued" | "sending" | "sent"; sent: number; failed: number; removed: number; finishedAt: string | null };

/**
 * On the item's edit page: whether its alert is on its way, being sent, or how many subscribers got it
 * («أُرسل التنبيه إلى N مشتركًا»), with the failures and expired subscriptions when there were any.
 */
export function PushAlertNotice({ alert }: { alert: PushAlertSummary | null }) {
  const { t } = useTranslation();
  const counted = useCount();
  if (!alert) return null;
  const text = alert.state === "queued" ? t("push.alert.queued") : alert.state === "sending" ? t("push.alert.sending") : counted("push.alert.sent", alert.sent);
  return (
    <div role="status" data-testid="push-alert" data-state={alert.state} className="rounded-md border border-desert-300 bg-sand-50 px-4 py-3 text-sm">
      <p className="font-bold">{t("push.alert.title")}</p>
      <p data-testid="push-alert-text">{text}</p>
      {alert.state !== "queued" && (alert.failed > 0 || alert.removed > 0) && (
        <p className="text-ink-soft" data-testid="push-alert-problems">
          {t("push.alert.problems", { failed: alert.failed, removed: alert.removed })}
        </p>
      )}
    </div>
  );
}
