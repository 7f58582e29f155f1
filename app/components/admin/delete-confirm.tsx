import { useEffect, useRef, type ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { useTranslation } from "react-i18next";

export type DeleteTarget = { id: number | string; title: string };

/** The question and its two answers (back-office.md §2: 'تأكيد الحذف', 'إلغاء', 'حذف'), posted to the list's action. */
function Confirmation({ target, back, cancel }: { target: DeleteTarget; back: string; cancel: ReactNode }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "delete";
  return (
    <>
      <h2 id="delete-title" className="text-lg font-bold">
        {t("admin.confirmDeleteTitle")}
      </h2>
      <p id="delete-text" className="mt-2 text-sm text-ink-soft">
        {t("admin.confirmDelete")}
      </p>
      <p className="mt-3 rounded-md bg-sand-50 px-3 py-2 text-sm font-bold" data-testid="delete-item-title">
        {target.title}
      </p>
      <Form method="post" className="mt-5 flex flex-wrap justify-end gap-2">
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={target.id} />
        <input type="hidden" name="back" value={back} />
        {cancel}
        <button
          type="submit"
          disabled={busy}
          aria-busy={busy || undefined}
          className="rounded-md bg-red-700 px-4 py-2 text-sm font-bold text-white hover:bg-red-800 disabled:opacity-70"
          data-testid="delete-confirm"
        >
          {t("admin.delete")}
        </button>
      </Form>
    </>
  );
}

const cancelClass = "rounded-md border border-sand-300 px-4 py-2 text-sm font-bold hover:bg-sand-100";

/**
 * With JavaScript: a native modal <dialog> (focus trapped, Escape closes), opened by the list's delete icon.
 * The icon is a link to the confirmation step below, which is what a browser without JavaScript gets.
 */
export function DeleteDialog({ target, back, onClose }: { target: DeleteTarget | null; back: string; onClose: () => void }) {
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
      aria-labelledby="delete-title"
      aria-describedby="delete-text"
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl border border-sand-200 bg-white p-6 text-ink shadow-xl backdrop:bg-ink/40"
      data-testid="delete-dialog"
    >
      {target && (
        <Confirmation
          target={target}
          back={back}
          cancel={
            <button type="button" onClick={() => dialog.current?.close()} className={cancelClass} data-testid="delete-cancel">
              {t("admin.cancel")}
            </button>
          }
        />
      )}
    </dialog>
  );
}

/** The confirmation as a step of its own (the list at `?delete=ID`), for a browser without JavaScript. */
export function DeleteStep({ target, back }: { target: DeleteTarget; back: string }) {
  const { t } = useTranslation();
  return (
    <section
      role="alertdialog"
      aria-labelledby="delete-title"
      aria-describedby="delete-text"
      className="mb-6 rounded-xl border border-red-200 bg-white p-6 shadow-sm"
      data-testid="delete-step"
    >
      <Confirmation
        target={target}
        back={back}
        cancel={
          <Link to={back} className={cancelClass} data-testid="delete-cancel">
            {t("admin.cancel")}
          </Link>
        }
      />
    </section>
  );
}
