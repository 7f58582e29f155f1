import { useCallback, useEffect, useRef, useState, type ReactNode, type KeyboardEvent, type SyntheticEvent } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Language } from "#domain/language.ts";
import { dateLocale, formatDate } from "#domain/format.ts";
import { NEWSROOM_TIME_ZONE } from "#domain/calendar.ts";
import { ModalDialog, cancelButtonClass } from "./modal-dialog.tsx";

/**
 * Who is editing (issue 40, decision 0139), in the item's editor. The loader took (or found taken) the item's
 * lock; while the page holds it, its heartbeat renews it every `heartbeatSeconds` (and at once when the tab
 * comes back), and leaving the page releases it (fetch keepalive on pagehide, or the editor unmounting). A
 * heartbeat answered 409 means someone took over: the form's copy is kept (`onLost`: on this device, and the
 * draft's autosave), the banner names who, and the form turns read-only. Someone else's lock is shown before
 * anything is typed, with a button to take over after a confirmation.
 */
export type LockHolder = { id: string; name: string };
export type EditorLock = { held: boolean; holder: LockHolder; since: string };

/** "10:42" in Nouakchott's time, or the date and time when it was not today. */
export function lockTime(since: string, lang: Language): string {
  const day = (d: Date) => d.toLocaleDateString("en-CA", { timeZone: NEWSROOM_TIME_ZONE });
  const date = new Date(since);
  if (day(date) !== day(new Date())) return formatDate(date, lang, "dateTime");
  return new Intl.DateTimeFormat(dateLocale(lang), { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: NEWSROOM_TIME_ZONE }).format(date);
}

type LockAnswer = { holder: LockHolder; since: string };

/** The lock as the page knows it, and whether it was lost to a takeover while held here. */
export function useItemLock({
  url,
  initial,
  heartbeatSeconds,
  onLost,
}: {
  url: string | null;
  initial: EditorLock | null;
  heartbeatSeconds: number;
  onLost: () => void;
}) {
  const [lock, setLock] = useState<EditorLock | null>(initial);
  const [lost, setLost] = useState(false);
  const held = useRef(initial?.held ?? false);
  const lostRef = useRef(onLost);
  useEffect(() => {
    lostRef.current = onLost;
  }, [onLost]);

  const take = useCallback(
    async (takeover: boolean): Promise<boolean> => {
      if (!url) return false;
      const res = await fetch(takeover ? `${url}?takeover=1` : url, { method: "POST", credentials: "same-origin" });
      if (res.status !== 200 && res.status !== 409) return false;
      const answer = (await res.json()) as LockAnswer;
      const nowHeld = res.status === 200;
      if (held.current && !nowHeld) {
        setLost(true);
        lostRef.current();
      }
      if (nowHeld) setLost(false);
      held.current = nowHeld;
      setLock({ held: nowHeld, holder: answer.holder, since: answer.since });
      return nowHeld;
    },
    [url],
  );

  /** Released by this page on its way out (pagehide, unmount): taken again if the page comes back. */
  const released = useRef(false);
  useEffect(() => {
    if (!url) return;
    const beat = () => {
      if (held.current) void take(false).catch(() => undefined);
    };
    const again = () => {
      if (!released.current) return;
      released.current = false;
      held.current = true;
      beat();
    };
    // Mounted again (React's development double mount) after this page released it: taken again.
    again();
    const timer = setInterval(beat, heartbeatSeconds * 1000);
    const visible = () => document.visibilityState === "visible" && beat();
    const release = () => {
      if (!held.current) return;
      held.current = false;
      released.current = true;
      void fetch(url, { method: "DELETE", keepalive: true, credentials: "same-origin" }).catch(() => undefined);
    };
    // Back from the browser's page cache: the lock released on the way out is taken again.
    const shown = (event: PageTransitionEvent) => event.persisted && again();
    document.addEventListener("visibilitychange", visible);
    window.addEventListener("pagehide", release);
    window.addEventListener("pageshow", shown);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", visible);
      window.removeEventListener("pagehide", release);
      window.removeEventListener("pageshow", shown);
      release();
    };
  }, [url, heartbeatSeconds, take]);

  return { lock, lost, readOnly: lock !== null && !lock.held, takeOver: () => take(true) };
}

/** Keys that only move, select or copy: allowed in a read-only rich-text field. */
const READING_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown", "Tab", "Escape", "Shift"]);

/**
 * The form, read-only while someone else holds the lock: its controls disabled (a disabled fieldset), and typing,
 * pasting or dropping into its rich-text fields refused; reading, selecting and copying still work.
 */
export function LockedArea({ readOnly, children }: { readOnly: boolean; children: ReactNode }) {
  const refuse = (event: SyntheticEvent) => {
    if (readOnly) event.preventDefault();
  };
  const keys = (event: KeyboardEvent) => {
    if (!readOnly || READING_KEYS.has(event.key)) return;
    if ((event.ctrlKey || event.metaKey) && ["c", "a"].includes(event.key.toLowerCase())) return;
    event.preventDefault();
    event.stopPropagation();
  };
  return (
    <fieldset
      disabled={readOnly}
      aria-disabled={readOnly || undefined}
      data-testid="lock-area"
      data-read-only={readOnly ? "true" : "false"}
      className="m-0 min-w-0 border-0 p-0"
      onBeforeInputCapture={refuse}
      onPasteCapture={refuse}
      onDropCapture={refuse}
      onCutCapture={refuse}
      onKeyDownCapture={keys}
    >
      {children}
    </fieldset>
  );
}

/** The banner: who holds the item since when (before anything is typed), or who took it over; and the takeover. */
export function LockBanner({ lock, lost, onTakeOver }: { lock: EditorLock | null; lost: boolean; onTakeOver: () => Promise<boolean> }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const [asking, setAsking] = useState(false);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  if (!lock || lock.held) return null;
  const name = lock.holder.name;
  const confirm = async () => {
    setBusy(true);
    setFailed(false);
    try {
      const ok = await onTakeOver();
      setFailed(!ok);
      if (ok) setAsking(false);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div
      role={lost ? "alert" : "status"}
      data-testid="lock-banner"
      data-state={lost ? "lost" : "held"}
      data-holder={lock.holder.id}
      className="rounded-md border border-s-4 border-amber-500 bg-amber-50 px-4 py-3 text-sm text-amber-950"
    >
      <p className="font-bold" data-testid="lock-holder">
        {lost ? t("itemLock.takenOver", { name }) : t("itemLock.heldBy", { name, time: lockTime(lock.since, lang) })}
      </p>
      <p className="mt-1">{lost ? t("itemLock.takenOverHint") : t("itemLock.heldByHint", { name })}</p>
      <button
        type="button"
        onClick={() => setAsking(true)}
        className="mt-2 rounded-md bg-amber-800 px-3 py-1.5 font-bold text-white hover:bg-amber-900"
        data-testid="lock-take-over"
      >
        {lost ? t("itemLock.takeBack") : t("itemLock.takeOver")}
      </button>
      <ModalDialog
        open={asking}
        onClose={() => setAsking(false)}
        labelledBy="lock-confirm-title"
        describedBy="lock-confirm-text"
        testId="lock-confirm-dialog"
        initialFocus={confirmRef}
      >
        <h2 id="lock-confirm-title" className="text-lg font-bold">
          {t("itemLock.confirmTitle")}
        </h2>
        <p id="lock-confirm-text" className="mt-2 text-sm text-ink-soft">
          {t("itemLock.confirm", { name })}
        </p>
        {failed && (
          <p role="alert" className="mt-2 text-sm font-bold text-red-800" data-testid="lock-take-over-failed">
            {t("itemLock.failed")}
          </p>
        )}
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <button type="button" onClick={() => setAsking(false)} className={cancelButtonClass} data-testid="lock-confirm-cancel">
            {t("itemLock.cancel")}
          </button>
          <button
            ref={confirmRef}
            type="button"
            onClick={() => void confirm()}
            disabled={busy}
            aria-busy={busy || undefined}
            className="rounded-md bg-amber-800 px-4 py-2 text-sm font-bold text-white hover:bg-amber-900"
            data-testid="lock-confirm"
          >
            {t("itemLock.confirmYes")}
          </button>
        </div>
      </ModalDialog>
    </div>
  );
}
