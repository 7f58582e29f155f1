import { useFetcher } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { formatNumber } from "#domain/plural.ts";
import type { SendSummary } from "#server/newsletter/sends.server.ts";
import { LANGUAGE_NAMES, smallButton, type NewsletterAnswer } from "./newsletter-types.ts";

/** Past sends with their counts; one still going can be stopped, one that failed with mails left resumed. */
export function SendsTable({ sends }: { sends: SendSummary[] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const fetcher = useFetcher<NewsletterAnswer>({ key: "newsletter-send-state" });
  return (
    <section aria-labelledby="newsletter-sends-title" className="rounded-lg border border-sand-200 bg-white p-4">
      <h2 id="newsletter-sends-title" className="mb-3 text-xl font-bold">
        {t("newsletterAdmin.pastSends")}
      </h2>
      {sends.length === 0 ? (
        <p className="text-ink-soft">{t("newsletterAdmin.noSends")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-start text-sm" data-testid="newsletter-sends">
            <thead>
              <tr className="border-b border-sand-200 text-ink-soft">
                <th className="p-2 text-start">{t("newsletterAdmin.columns.date")}</th>
                <th className="p-2 text-start">{t("newsletterAdmin.columns.subject")}</th>
                <th className="p-2 text-start">{t("newsletterAdmin.columns.kind")}</th>
                <th className="p-2 text-start">{t("newsletterAdmin.columns.state")}</th>
                <th className="p-2 text-end">{t("newsletterAdmin.columns.total")}</th>
                <th className="p-2 text-end">{t("newsletterAdmin.columns.sent")}</th>
                <th className="p-2 text-end">{t("newsletterAdmin.columns.failed")}</th>
                <th className="p-2 text-end">{t("newsletterAdmin.columns.unsubscribed")}</th>
                <th className="p-2" />
              </tr>
            </thead>
            <tbody>
              {sends.map((s) => (
                <tr key={s.id} className="border-b border-sand-100" data-testid="newsletter-send-row" data-id={s.id} data-state={s.state}>
                  <td className="p-2 whitespace-nowrap">{formatDate(s.createdAt, lang, "short")}</td>
                  <td className="p-2" dir="auto">
                    {s.subject}
                  </td>
                  <td className="p-2 whitespace-nowrap">
                    {t(s.kind === "digest" ? `newsletterAdmin.periods.${s.period ?? "daily"}` : "newsletterAdmin.kinds.item")} ·{" "}
                    {LANGUAGE_NAMES[s.language] ? t(`languageNames.${s.language}`) : s.language}
                  </td>
                  <td className="p-2 whitespace-nowrap" title={s.lastError ?? undefined}>
                    {t(`newsletterAdmin.states.${s.state}`)}
                  </td>
                  <td className="p-2 text-end">{formatNumber(lang, s.total)}</td>
                  <td className="p-2 text-end" data-testid="send-sent" data-value={s.sent}>
                    {formatNumber(lang, s.sent)}
                  </td>
                  <td className="p-2 text-end" data-testid="send-failed" data-value={s.failed}>
                    {formatNumber(lang, s.failed)}
                  </td>
                  <td className="p-2 text-end" data-testid="send-unsubscribed" data-value={s.unsubscribed}>
                    {formatNumber(lang, s.unsubscribed)}
                  </td>
                  <td className="p-2">
                    {s.state === "queued" || s.state === "sending" || (s.state === "failed" && s.pending > 0) ? (
                      <fetcher.Form method="post">
                        <input type="hidden" name="id" value={s.id} />
                        <button type="submit" name="intent" value={s.state === "failed" ? "resume" : "cancel"} className={smallButton}>
                          {t(s.state === "failed" ? "newsletterAdmin.resume" : "newsletterAdmin.stop")}
                        </button>
                      </fetcher.Form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
