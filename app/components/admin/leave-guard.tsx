/**
 * Leaving a form with unsaved changes asks first (docs/how-it-works.md, "No lost work"): a link of the menu,
 * the back button or any other navigation inside the app opens an in-page question in the page's language
 * (a native modal <dialog>: focus kept inside, Escape stays); closing or reloading the tab gets the browser's
 * own question (`beforeunload`). `onLeave` runs before the page is left (the editor keeps its copy).
 */
import { useEffect, useRef } from "react";
import { useBlocker } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { ModalDialog } from "./modal-dialog.tsx";

export function LeaveGuard({ when, onLeave }: { when: boolean; onLeave?: () => void }) {
  const { t } = useTranslation();
  const stay = useRef<HTMLButtonElement>(null);
  // Only a move to another page: a save posts to this one, and signing in again comes back to it.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!when) return;
    const ask = (event: BeforeUnloadEvent) => {
      onLeave?.();
      event.preventDefault();
      // Older browsers show the question only when this is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [when, onLeave]);

  const reset = () => {
    if (blocker.state === "blocked") blocker.reset();
  };

  return (
    // A dialog per blocked navigation: when "stay" and the next navigation (back pressed at once) reach React in one
    // render, `open` never turns false, and the same dialog, closed by the button, would not be shown again.
    <ModalDialog
      key={blocker.location?.key ?? "idle"}
      open={blocker.state === "blocked"}
      onClose={reset}
      labelledBy="leave-title"
      describedBy="leave-text"
      initialFocus={stay}
      testId="leave-dialog"
    >
      <h2 id="leave-title" className="text-lg font-bold">
        {t("autosave.leaveTitle")}
      </h2>
      <p id="leave-text" className="mt-2 text-sm text-ink-soft">
        {t("autosave.leaveText")}
      </p>
      <div className="mt-5 flex flex-wrap justify-end gap-2">
        <button
          ref={stay}
          type="button"
          onClick={(event) => event.currentTarget.closest("dialog")?.close()}
          className="rounded-md bg-desert-600 px-4 py-2 text-sm font-bold text-white hover:bg-desert-700"
          data-testid="leave-stay"
        >
          {t("autosave.stay")}
        </button>
        <button
          type="button"
          onClick={() => {
            onLeave?.();
            if (blocker.state === "blocked") blocker.proceed();
          }}
          className="rounded-md border border-red-700 px-4 py-2 text-sm font-bold text-red-800 hover:bg-red-50"
          data-testid="leave-confirm"
        >
          {t("autosave.leave")}
        </button>
      </div>
    </ModalDialog>
  );
}
