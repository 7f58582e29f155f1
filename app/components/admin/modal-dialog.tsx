import { useEffect, useRef, type ComponentPropsWithoutRef, type ReactNode, type RefObject } from "react";
import { useTranslation } from "#app/lib/i18n.ts";

/** The back-office's secondary "cancel" button, in a dialog or a confirmation step. */
export const cancelButtonClass = "rounded-md border border-sand-300 px-4 py-2 text-sm font-bold hover:bg-sand-100";

/** The usual frame of a small back-office dialog; `width` is its width class. */
const frameClass = "m-auto rounded-xl border border-sand-200 bg-white p-6 text-ink shadow-xl backdrop:bg-ink/40";
export const DIALOG_WIDTH = { narrow: "w-[min(28rem,calc(100vw-2rem))]", medium: "w-[min(30rem,calc(100vw-2rem))]" } as const;

export type ModalDialogProps = {
  /** Shown (native modal: the page behind is inert, focus kept inside, Escape closes) while true. */
  open: boolean;
  /** The dialog closed (Escape, a cancel button, or `open` turning false). */
  onClose: () => void;
  labelledBy: string;
  describedBy?: string;
  testId: string;
  /** A width class (DIALOG_WIDTH), added to the usual frame; or the whole class when `className` is given. */
  width?: string;
  /** Replaces the usual frame (a dialog laid out on its own). */
  className?: string;
  /** Focused once the dialog is shown (otherwise the browser's first focusable control). */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Gets the <dialog> element, for a control inside that closes it. */
  dialogRef?: RefObject<HTMLDialogElement | null>;
  children: ReactNode;
} & Omit<ComponentPropsWithoutRef<"dialog">, "open" | "onClose" | "className" | "children">;

/**
 * A native modal <dialog>, shown and closed with `open` (showModal / close), named by its heading and described
 * by its text. Every back-office dialog goes through this one.
 */
export function ModalDialog({
  open,
  onClose,
  labelledBy,
  describedBy,
  testId,
  width = DIALOG_WIDTH.narrow,
  className,
  initialFocus,
  dialogRef,
  children,
  ...rest
}: ModalDialogProps) {
  const own = useRef<HTMLDialogElement>(null);
  const dialog = dialogRef ?? own;
  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) {
      el.showModal();
      initialFocus?.current?.focus();
    }
    if (!open && el.open) el.close();
  }, [open, dialog, initialFocus]);
  return (
    <dialog
      {...rest}
      ref={dialog}
      onClose={onClose}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      className={className ?? `${frameClass} ${width}`}
      data-testid={testId}
    >
      {children}
    </dialog>
  );
}

/** A button that closes the dialog it sits in (its `onClose` then runs). */
export function CloseDialogButton({ testId, className = cancelButtonClass, children }: { testId: string; className?: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <button type="button" onClick={(event) => event.currentTarget.closest("dialog")?.close()} className={className} data-testid={testId}>
      {children ?? t("admin.cancel")}
    </button>
  );
}

/**
 * The heading bar of a large dialog (the library's details, the picker): its title (and a line under it), and a
 * button that closes it. `inset` is its side padding, the same as the dialog's body.
 */
export function DialogHeader({
  titleId,
  title,
  subtitle,
  closeLabel,
  closeTestId,
  inset = "px-4 sm:px-5",
}: {
  titleId: string;
  title: string;
  subtitle?: string;
  closeLabel: string;
  closeTestId: string;
  inset?: string;
}) {
  return (
    <div className={`flex justify-between gap-3 border-b border-sand-200 py-3 ${subtitle ? "items-start" : "items-center"} ${inset}`}>
      <div className="min-w-0">
        <h2 id={titleId} className="text-lg font-bold">
          {title}
        </h2>
        {subtitle && (
          <p className="truncate text-sm text-ink-soft" dir="auto" title={subtitle}>
            {subtitle}
          </p>
        )}
      </div>
      <CloseDialogButton
        testId={closeTestId}
        className="inline-flex h-10 min-w-10 shrink-0 items-center justify-center rounded-md border border-sand-300 px-3 text-sm font-bold hover:bg-sand-100"
      >
        {closeLabel}
      </CloseDialogButton>
    </div>
  );
}
