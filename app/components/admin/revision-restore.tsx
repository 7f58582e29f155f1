import { useEffect, useRef, type ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { useTranslation } from "react-i18next";

/** The version a restore would bring back: its id, whether it is an autosave, and how the page names it (date, author). */
export type RestoreTarget = { id: number; kind: "save" | "autosave"; label: string };

/**
 * The question before a restore, in the manner of the list's delete (./delete-confirm.tsx): with JavaScript a
 * native modal <dialog> (focus kept inside, Escape closes), without it a step of the page
 * (`?restore=ID`). Confirming posts the restore; cancelling changes nothing.
 */
function Confirmation({ target, cancel }: { target: RestoreTarget; cancel: ReactNode }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "restore";
  return (
    <>
      <h2 id="restore-title" className="text-lg font-bold">
        {t("newsroom.revisions.restoreTitle")}
      </h2>
      <p id="restore-text" className="mt-2 text-sm text-ink-soft">
        {t(target.kind === "autosave" ? "newsroom.revisions.restoreAutosaveText" : "newsroom.revisions.restoreText")}
      </p>
      <p className="mt-3 rounded-md bg-sand-50 px-3 py-2 text-sm font-bold" data-testid="restore-target">
        {target.label}
      </p>
      <Form method="post" className="mt-5 flex flex-wrap justify-end gap-2">
        <input type="hidden" name="intent" value="restore" />
        <input type="hidden" name="rev" value={target.id} />
        {cancel}
        <button
          type="submit"
          disabled={busy}
          aria-busy={busy || undefined}
          className="rounded-md bg-desert-600 px-4 py-2 text-sm font-bold text-white hover:bg-desert-700 disabled:opacity-70"
          data-testid="restore-confirm"
        >
          {busy ? t("admin.saving") : t("newsroom.revisions.restoreConfirm")}
        </button>
      </Form>
    </>
  );
}

const cancelClass = "rounded-md border border-sand-300 px-4 py-2 text-sm font-bold hover:bg-sand-100";

export function RestoreDialog({ target, onClose }: { target: RestoreTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (target && !el.open) el.showModal();
    if (!target && el.open) el.close();
  }, [target]);
  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="restore-title"
      aria-describedby="restore-text"
      className="m-auto w-[min(30rem,calc(100vw-2rem))] rounded-xl border border-sand-200 bg-white p-6 text-ink shadow-xl backdrop:bg-ink/40"
      data-testid="restore-dialog"
    >
      {target && (
        <Confirmation
          target={target}
          cancel={
            <button type="button" onClick={() => dialog.current?.close()} className={cancelClass} data-testid="restore-cancel">
              {t("admin.cancel")}
            </button>
          }
        />
      )}
    </dialog>
  );
}

/** The confirmation as a step of the page (`?restore=ID`), for a browser without JavaScript. */
export function RestoreStep({ target, back }: { target: RestoreTarget; back: string }) {
  const { t } = useTranslation();
  return (
    <section
      role="alertdialog"
      aria-labelledby="restore-title"
      aria-describedby="restore-text"
      className="rounded-xl border border-sand-300 bg-white p-6 shadow-sm"
      data-testid="restore-step"
    >
      <Confirmation
        target={target}
        cancel={
          <Link to={back} className={cancelClass} data-testid="restore-cancel">
            {t("admin.cancel")}
          </Link>
        }
      />
    </section>
  );
}

/** "Restore this version": a link to the confirmation step, which opens the dialog instead when JavaScript runs. */
export function RestoreButton({ target, href, onOpen }: { target: RestoreTarget; href: string; onOpen: (target: RestoreTarget) => void }) {
  const { t } = useTranslation();
  return (
    <Link
      to={href}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        onOpen(target);
      }}
      className="inline-block rounded-md bg-desert-600 px-3 py-1.5 text-sm font-bold text-white hover:bg-desert-700"
      data-testid="restore"
      data-rev={target.id}
    >
      {t("newsroom.ui.restore")}
    </Link>
  );
}
