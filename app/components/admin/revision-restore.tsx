import { Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { DIALOG_WIDTH } from "./modal-dialog.tsx";
import { ConfirmationDialog, ConfirmationStep, type Question } from "./confirmation.tsx";

/** The version a restore would bring back: its id, whether it is an autosave, and how the page names it (date, author). */
export type RestoreTarget = { id: number; kind: "save" | "autosave"; label: string };

/**
 * The question before a restore, in the manner of the list's delete (./delete-confirm.tsx): with JavaScript a
 * native modal <dialog> (focus kept inside, Escape closes), without it a step of the page
 * (`?restore=ID`). Confirming posts the restore; cancelling changes nothing.
 */
function useRestoreQuestion(target: RestoreTarget | null): Question | null {
  const { t } = useTranslation();
  if (!target) return null;
  return {
    name: "restore",
    title: t("newsroom.revisions.restoreTitle"),
    text: t(target.kind === "autosave" ? "newsroom.revisions.restoreAutosaveText" : "newsroom.revisions.restoreText"),
    subject: target.label,
    subjectTestId: "restore-target",
    intent: "restore",
    fields: { rev: target.id },
    confirm: {
      label: t("newsroom.revisions.restoreConfirm"),
      busyLabel: t("admin.saving"),
      className: "rounded-md bg-desert-600 px-4 py-2 text-sm font-bold text-white hover:bg-desert-700 disabled:opacity-70",
      testId: "restore-confirm",
    },
  };
}

export function RestoreDialog({ target, onClose }: { target: RestoreTarget | null; onClose: () => void }) {
  return <ConfirmationDialog name="restore" question={useRestoreQuestion(target)} onClose={onClose} width={DIALOG_WIDTH.medium} />;
}

/** The confirmation as a step of the page (`?restore=ID`), for a browser without JavaScript. */
export function RestoreStep({ target, back }: { target: RestoreTarget; back: string }) {
  const question = useRestoreQuestion(target);
  return question && <ConfirmationStep question={question} back={back} className="rounded-xl border border-sand-300 bg-white p-6 shadow-sm" />;
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
