import { useTranslation } from "#app/lib/i18n.ts";
// no-inline: a script this small would become a data: URL, which the CSP (script-src 'self') refuses.
import pushScript from "#app/enhance/push.js?url&no-inline";

/** What a page's loader passes when the site sends breaking-news alerts: the VAPID public key (never the private one). */
export type PushOptInData = { publicKey: string } | null;

/**
 * The enhancement modules of a static page offering the opt-in (app/lib/static-page.ts `enhance`): the opt-in
 * script only when the loader's `push` is set, so a site without VAPID keys ships none of it.
 */
export function pushEnhancements(data: unknown): string[] {
  return (data as { push?: PushOptInData } | null)?.push ? [pushScript] : [];
}

/**
 * The breaking-news alerts' opt-in (docs/decisions/0127-breaking-news-alerts.md): a box the server renders
 * `hidden`, which app/enhance/push.js shows where the browser can receive pushes, with its words as data-*
 * attributes in the page's language. Nothing at all without VAPID keys; nothing visible without JavaScript.
 */
export function PushOptIn({ optIn, className = "" }: { optIn: PushOptInData; className?: string }) {
  const { t } = useTranslation();
  if (!optIn) return null;
  return (
    <section
      hidden
      data-push-opt-in=""
      data-testid="push-opt-in"
      data-key={optIn.publicKey}
      data-on={t("push.optIn.subscribe")}
      data-off={t("push.optIn.unsubscribe")}
      data-subscribed={t("push.optIn.subscribed")}
      data-unsubscribed={t("push.optIn.unsubscribed")}
      data-denied={t("push.optIn.denied")}
      data-failed={t("push.optIn.failed")}
      aria-labelledby="push-opt-in-title"
      className={`rounded-lg border border-desert-300 bg-sand-50 p-4 ${className}`}
    >
      <h2 id="push-opt-in-title" className="font-bold">
        {t("push.optIn.title")}
      </h2>
      <p className="mt-1 text-sm text-ink-soft">{t("push.optIn.intro")}</p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button
          type="button"
          data-testid="push-opt-in-button"
          className="rounded-md bg-desert-700 px-4 py-2 text-sm font-bold text-white hover:bg-desert-800 disabled:opacity-60"
        >
          {t("push.optIn.subscribe")}
        </button>
        <p role="status" aria-live="polite" data-push-status="" data-testid="push-opt-in-status" className="text-sm" />
      </div>
    </section>
  );
}
