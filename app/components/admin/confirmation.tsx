import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { cancelButtonClass, CloseDialogButton, ModalDialog } from "./modal-dialog.tsx";

/**
 * A question before an action posted to the page (a delete, a restore), in two forms: with JavaScript a native
 * modal <dialog> (ConfirmationDialog: focus kept inside, Escape closes), without it a step of the page of its own
 * (ConfirmationStep, at an address such as `?delete=ID`). Confirming posts `intent` and `fields`; cancelling
 * changes nothing.
 */
export type Question = {
  /** Prefix of its ids (`${name}-title`, `${name}-text`) and test ids (`${name}-dialog`, `-step`, `-cancel`). */
  name: string;
  title: string;
  text: string;
  /** What the action is about (the item's title, the version's date), and its test id. */
  subject: string;
  subjectTestId: string;
  intent: string;
  /** Hidden inputs posted with the intent. */
  fields: Record<string, string | number>;
  confirm: { label: string; busyLabel?: string; className: string; testId: string };
};

function Body({ question, cancel }: { question: Question; cancel: ReactNode }) {
  const navigation = useNavigation();
  const { name, title, text, subject, subjectTestId, intent, fields, confirm } = question;
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <>
      <h2 id={`${name}-title`} className="text-lg font-bold">
        {title}
      </h2>
      <p id={`${name}-text`} className="mt-2 text-sm text-ink-soft">
        {text}
      </p>
      <p className="mt-3 rounded-md bg-sand-50 px-3 py-2 text-sm font-bold" data-testid={subjectTestId}>
        {subject}
      </p>
      <Form method="post" className="mt-5 flex flex-wrap justify-end gap-2">
        <input type="hidden" name="intent" value={intent} />
        {Object.entries(fields).map(([field, value]) => (
          <input key={field} type="hidden" name={field} value={value} />
        ))}
        {cancel}
        <button type="submit" disabled={busy} aria-busy={busy || undefined} className={confirm.className} data-testid={confirm.testId}>
          {busy && confirm.busyLabel ? confirm.busyLabel : confirm.label}
        </button>
      </Form>
    </>
  );
}

/** The question in a modal dialog, shown while there is one; its cancel closes the dialog (then `onClose` runs). */
export function ConfirmationDialog({ name, question, onClose, width }: { name: string; question: Question | null; onClose: () => void; width?: string }) {
  return (
    <ModalDialog open={question !== null} onClose={onClose} labelledBy={`${name}-title`} describedBy={`${name}-text`} width={width} testId={`${name}-dialog`}>
      {question && <Body question={question} cancel={<CloseDialogButton testId={`${name}-cancel`} />} />}
    </ModalDialog>
  );
}

/** The question as a step of the page, for a browser without JavaScript; its cancel is a link `back`. */
export function ConfirmationStep({ question, back, className }: { question: Question; back: string; className: string }) {
  const { t } = useTranslation();
  const { name } = question;
  return (
    <section role="alertdialog" aria-labelledby={`${name}-title`} aria-describedby={`${name}-text`} className={className} data-testid={`${name}-step`}>
      <Body
        question={question}
        cancel={
          <Link to={back} className={cancelButtonClass} data-testid={`${name}-cancel`}>
            {t("admin.cancel")}
          </Link>
        }
      />
    </section>
  );
}
