import { useTranslation } from "#app/lib/i18n.ts";

/**
 * Shares through the Web Share API where the device has it (phones), else copies the link and says so. The
 * behaviour is app/enhance/reading.js's, on every page; this is its markup and its words.
 */
export function ShareButton({ title, text, url }: { title: string; text?: string; url: string }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      data-testid="share-button"
      // What app/enhance/reading.js needs.
      data-title={title}
      data-text={text}
      data-url={url}
      data-copied-title={t("detail.linkCopied")}
      data-copied-text={t("detail.linkCopiedText")}
      data-copy-failed={t("detail.copyFailed")}
      className="inline-flex items-center gap-2 rounded-md border border-sand-300 bg-white px-4 py-2 font-bold text-ink hover:bg-sand-100"
    >
      <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round">
        <circle cx="18" cy="5" r="3" />
        <circle cx="6" cy="12" r="3" />
        <circle cx="18" cy="19" r="3" />
        <path d="m8.6 13.5 6.8 4M15.4 6.5l-6.8 4" />
      </svg>
      {t("detail.share")}
    </button>
  );
}
