import { useTranslation } from "react-i18next";
import { createContext, useCallback, useContext, useEffect, useRef, useState, type PointerEvent, type ReactNode } from "react";

export type ToastVariant = "default" | "destructive" | "warning" | "success";
export type ToastInput = { title: string; description?: string; variant?: ToastVariant; duration?: number };
type ShownToast = ToastInput & { id: number };

/** Spec §9: 3000 ms by default; callers pass 4000 (media opened) or 5000 (message sent). */
export const DEFAULT_TOAST_MS = 3000;
export const SWIPE_THRESHOLD_PX = 50;

const ToastContext = createContext<(toast: ToastInput) => void>(() => {});
export const useToast = () => useContext(ToastContext);

const variantClass: Record<ToastVariant, string> = {
  default: "bg-white text-ink border-sand-300",
  success: "bg-white text-ink border-palm-600",
  warning: "bg-amber-50 text-amber-950 border-amber-400",
  destructive: "bg-red-700 text-white border-red-800",
};

/**
 * Toasts as public-site.md §4 describes them: one at a time (a new one replaces the old), dismissed by a
 * 50 px swipe or by F8 then Escape, announced to screen readers. Written here rather than taken from Radix
 * to keep ~12 KB of compressed JavaScript off every page (docs/decisions/0005-own-toast.md).
 *
 * The region is a labelled landmark (a named <section>), so it is no content outside any landmark, and it
 * holds two live regions that are in the page from the start — polite (role="status") and assertive (for
 * destructive toasts) — because a live region inserted together with its text is often not announced.
 */
export function ToastProvider({ children, dir }: { children: ReactNode; dir: "rtl" | "ltr" }) {
  const [current, setCurrent] = useState<ShownToast | null>(null);
  const show = useCallback((toast: ToastInput) => setCurrent({ ...toast, id: Date.now() + Math.random() }), []);
  const region = useRef<HTMLElement>(null);
  const { t } = useTranslation();
  const label = t("common.notifications");
  const urgent = current?.variant === "destructive";
  const shown = current && <Toast key={current.id} toast={current} dir={dir} onDismiss={() => setCurrent(null)} />;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "F8") {
        e.preventDefault();
        region.current?.focus();
      } else if (e.key === "Escape" && region.current?.contains(document.activeElement)) {
        setCurrent(null);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <ToastContext.Provider value={show}>
      {children}
      <section
        ref={region}
        tabIndex={-1}
        // An error page rendered without the root data has no strings: the Arabic name, not the key.
        aria-label={label === "common.notifications" ? "الإشعارات (F8)" : label}
        className="pointer-events-none fixed inset-x-4 bottom-4 z-50 mx-auto max-w-md outline-none sm:inset-x-auto sm:end-4"
        data-testid="toast-region"
        // For the enhancement script of pages that do not hydrate (app/enhance/reading.js).
        data-close-label={t("common.close")}
      >
        <div role="status" aria-live="polite" aria-atomic="true">
          {!urgent && shown}
        </div>
        {/* aria-live rather than role="alert": the region is on every page, and an alert role there would read as an error shown. */}
        <div aria-live="assertive" aria-atomic="true">
          {urgent && shown}
        </div>
      </section>
    </ToastContext.Provider>
  );
}

function Toast({ toast, dir, onDismiss }: { toast: ShownToast; dir: "rtl" | "ltr"; onDismiss: () => void }) {
  const [offset, setOffset] = useState(0);
  const [paused, setPaused] = useState(false);
  const start = useRef<number | null>(null);
  const variant = toast.variant ?? "default";
  const { t } = useTranslation();

  useEffect(() => {
    if (paused) return;
    const timer = window.setTimeout(onDismiss, toast.duration ?? DEFAULT_TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [paused, toast.duration, onDismiss]);

  // Swipe towards the reading end (right in LTR, left in RTL) to dismiss.
  const sign = dir === "rtl" ? -1 : 1;
  const onPointerDown = (e: PointerEvent) => {
    start.current = e.clientX;
    setPaused(true);
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent) => {
    if (start.current === null) return;
    setOffset(Math.max(0, (e.clientX - start.current) * sign) * sign);
  };
  const onPointerUp = () => {
    if (start.current === null) return;
    start.current = null;
    if (Math.abs(offset) >= SWIPE_THRESHOLD_PX) onDismiss();
    else {
      setOffset(0);
      setPaused(false);
    }
  };

  return (
    <div
      data-testid="toast"
      data-variant={variant}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => start.current === null && setPaused(false)}
      style={{ transform: offset ? `translateX(${offset}px)` : undefined, touchAction: "pan-y" }}
      className={`pointer-events-auto flex items-start gap-3 rounded-lg border border-s-4 px-4 py-3 shadow-lg transition-transform ${variantClass[variant]}`}
    >
      <div className="flex-1">
        <p className="font-bold">{toast.title}</p>
        {toast.description && <p className="mt-1 text-sm opacity-90">{toast.description}</p>}
      </div>
      <button type="button" onClick={onDismiss} aria-label={t("common.close")} className="-me-1 rounded px-1 text-lg leading-none opacity-70 hover:opacity-100">
        ×
      </button>
    </div>
  );
}
