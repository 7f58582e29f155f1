import { useTranslation } from "#app/lib/i18n.ts";
import { ConfirmationDialog, ConfirmationStep, type Question } from "./confirmation.tsx";

export type DeleteTarget = { id: number | string; title: string };

/** The question and its two answers (back-office.md §2: 'تأكيد الحذف', 'إلغاء', 'حذف'), posted to the list's action. */
function useDeleteQuestion(target: DeleteTarget | null, back: string): Question | null {
  const { t } = useTranslation();
  if (!target) return null;
  return {
    name: "delete",
    title: t("admin.confirmDeleteTitle"),
    text: t("admin.confirmDelete"),
    subject: target.title,
    subjectTestId: "delete-item-title",
    intent: "delete",
    fields: { id: target.id, back },
    confirm: {
      label: t("admin.delete"),
      className: "rounded-md bg-red-700 px-4 py-2 text-sm font-bold text-white hover:bg-red-800 disabled:opacity-70",
      testId: "delete-confirm",
    },
  };
}

/**
 * With JavaScript: a native modal <dialog> (focus trapped, Escape closes), opened by the list's delete icon.
 * The icon is a link to the confirmation step below, which is what a browser without JavaScript gets.
 */
export function DeleteDialog({ target, back, onClose }: { target: DeleteTarget | null; back: string; onClose: () => void }) {
  return <ConfirmationDialog name="delete" question={useDeleteQuestion(target, back)} onClose={onClose} />;
}

/** The confirmation as a step of its own (the list at `?delete=ID`), for a browser without JavaScript. */
export function DeleteStep({ target, back }: { target: DeleteTarget; back: string }) {
  const question = useDeleteQuestion(target, back);
  return question && <ConfirmationStep question={question} back={back} className="mb-6 rounded-xl border border-red-200 bg-white p-6 shadow-sm" />;
}
