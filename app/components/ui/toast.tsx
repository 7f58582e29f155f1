import { useTranslation } from "#app/lib/i18n.ts";

export type ToastVariant = "default" | "destructive" | "warning" | "success";
export type ToastInput = { title: string; description?: string; variant?: ToastVariant; duration?: number };

/**
 * Says a toast. Toasts have one implementation, app/enhance/reading.js, loaded by every page (the static
 * reading pages and the React application alike, docs/decisions/0133-one-implementation-of-each-behaviour.md):
 * the application hands it the toast as the pages' own modules do, with an `app:toast` event.
 */
export function sayToast(toast: ToastInput) {
  document.dispatchEvent(new CustomEvent("app:toast", { detail: toast }));
}

/** The application's way to say a toast; a stable function, so a dependency of effects and callbacks at no cost. */
export const useToast = () => sayToast;

/**
 * Where toasts appear, as public-site.md §4 describes them (one at a time, 3 s by default, a 50 px swipe or F8
 * then Escape dismisses them), shown by app/enhance/reading.js. Rendered by the server on every page and never
 * changed by React, so what the script puts in it stays.
 *
 * The region is a labelled landmark (a named <section>), so it is no content outside any landmark, and it holds
 * two live regions that are in the page from the start — polite (role="status") and assertive (for destructive
 * toasts) — because a live region inserted together with its text is often not announced.
 */
export function ToastRegion() {
  const { t } = useTranslation();
  const label = t("common.notifications");
  return (
    <section
      tabIndex={-1}
      // An error page rendered without the root data has no strings: the Arabic name, not the key.
      aria-label={label === "common.notifications" ? "الإشعارات (F8)" : label}
      className="pointer-events-none fixed inset-x-4 bottom-4 z-50 mx-auto max-w-md outline-none sm:inset-x-auto sm:end-4"
      data-testid="toast-region"
      data-close-label={t("common.close")}
    >
      <div role="status" aria-live="polite" aria-atomic="true" />
      {/* aria-live rather than role="alert": the region is on every page, and an alert role there would read as an error shown. */}
      <div aria-live="assertive" aria-atomic="true" />
    </section>
  );
}
