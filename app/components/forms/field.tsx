/**
 * The forms toolkit's fields (issue 26): a label, the control, its hint and its message, tied together for
 * screen readers, the same way in every form of the site (the account pages, the editor, the contact page,
 * the opinion page's two forms). The control's id names the rest: `{id}-label`, `{id}-hint`, `{id}-error`;
 * the control gets `aria-invalid` and an `aria-describedby` listing what is shown under it. Messages are
 * translation keys, shown in the page's language. Start and end, never left and right: right-to-left
 * needs nothing of its own.
 *
 * A look is the place a form sits in: `panel` for the back-office (small labels, 44 px controls), `card` the
 * same a little tighter for the account pages' narrow card, `page` for the public pages, `dark` for a form on
 * a dark band (the newsletter).
 */
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
import { useTranslation } from "#app/lib/i18n.ts";

export type FieldLook = "panel" | "card" | "page" | "dark";

/** A look's classes; a control's border is `valid` or `invalid` (a plain class, so focus styles still win over it). */
type LookClasses = { wrapper?: string; label: string; control: string; valid: string; invalid: string; hint: string; error: string };

const PAGE_CONTROL =
  "block w-full rounded-md border bg-white px-3 py-2 text-ink shadow-sm placeholder:text-ink-soft/70 focus:border-desert-600 focus:outline-none focus:ring-2 focus:ring-desert-600/30";

const PANEL: LookClasses = {
  wrapper: "space-y-1.5",
  label: "block text-sm font-bold text-ink",
  control: "block w-full rounded-md border bg-white px-3 text-base outline-none focus:ring-2 focus:ring-desert-500",
  valid: "border-sand-300",
  invalid: "border-red-600",
  hint: "text-xs text-ink-soft",
  error: "text-sm text-red-700",
};

const LOOKS: Record<FieldLook, LookClasses> = {
  panel: PANEL,
  // On the card's own white: no background of its own, and a little tighter.
  card: { ...PANEL, wrapper: "space-y-1", control: "block w-full rounded-md border px-3 text-base outline-none focus:ring-2 focus:ring-desert-500" },
  page: {
    label: "mb-1 block font-bold",
    control: PAGE_CONTROL,
    valid: "border-sand-300",
    invalid: "border-red-700",
    hint: "mt-1 text-sm text-ink-soft",
    error: "mt-1 text-sm font-bold text-red-700",
  },
  dark: {
    label: "mb-1 block text-sm font-bold",
    control:
      "block w-full rounded-md border bg-white px-3 py-2 text-ink placeholder:text-ink-soft/70 focus:border-desert-600 focus:outline-none focus:ring-2 focus:ring-desert-500/40",
    valid: "border-sand-300",
    invalid: "border-red-700",
    hint: "mt-1 text-sm text-sand-100",
    error: "mt-1 text-sm font-bold text-amber-200",
  },
};

/** A file input, in any look: its button styled, the chosen file's name beside it. */
export const FILE_INPUT_CLASS =
  "block w-full text-sm file:me-3 file:rounded-md file:border-0 file:bg-sand-100 file:px-3 file:py-2 file:font-bold hover:file:bg-sand-200";

/** The ids a field's parts take from its control's id. */
export function fieldIds(id: string) {
  return { control: id, label: `${id}-label`, hint: `${id}-hint`, error: `${id}-error` };
}

/** What a field hands its control. */
export type ControlProps = { id: string; "aria-invalid"?: true; "aria-describedby"?: string; className: string } & Partial<Record<`data-${string}`, string>>;

/**
 * A public form's checks in a page without React (app/enhance/forms.js): the server's messages, already in
 * the page's language, for the rules the schema applies (the control's `required`, `maxLength`, `type=email`,
 * and `min` characters). The control carries them, with the classes the field shows a message with.
 */
export type FieldCheck = { required: string; tooLong?: string; invalid?: string; tooShort?: string; min?: number };

export type FieldOptions = {
  /** The control's id. */
  id: string;
  label: ReactNode;
  /** The message to show, a translation key (with `errorValues` for its placeholders). */
  error?: string;
  errorValues?: Record<string, unknown>;
  hint?: ReactNode;
  look?: FieldLook;
  /** The red star of a required field (the control's own `required` is separate). */
  requiredMark?: boolean;
  /** The hint stays under the message (a rule the message does not repeat). */
  keepHint?: boolean;
  /** The message's test id, where tests find it (default none). */
  errorTestId?: string;
  /** The wrapper's classes, added to the look's (a grid span). */
  className?: string;
  /** `data-field` on the wrapper (the editor's fields). */
  dataField?: string;
  /** Checked in the page by app/enhance/forms.js (a public page that does not hydrate). */
  check?: FieldCheck;
};

/**
 * One field, its control rendered by `children` with the props that tie it to the rest. With `group`, the
 * label names a group of controls (radios): a paragraph the group points to with aria-labelledby.
 */
export function Field({
  id,
  label,
  error,
  errorValues,
  hint,
  look = "panel",
  requiredMark,
  keepHint,
  errorTestId,
  className,
  dataField,
  check,
  group,
  children,
}: FieldOptions & { group?: boolean; children: (control: ControlProps) => ReactNode }) {
  const { t } = useTranslation();
  const ids = fieldIds(id);
  const classes = LOOKS[look];
  const showHint = Boolean(hint) && (keepHint || !error);
  const describedBy = [error ? ids.error : null, showHint ? ids.hint : null].filter(Boolean).join(" ") || undefined;
  const labelText = (
    <>
      {label}
      {requiredMark && (
        <span aria-hidden="true" className="text-red-700">
          {" "}
          *
        </span>
      )}
    </>
  );
  const wrapperClass = [classes.wrapper, className].filter(Boolean).join(" ") || undefined;
  return (
    <div className={wrapperClass} data-field={dataField}>
      {group ? (
        <p id={ids.label} className={classes.label}>
          {labelText}
        </p>
      ) : (
        <label id={ids.label} htmlFor={ids.control} className={classes.label}>
          {labelText}
        </label>
      )}
      {children({
        id: ids.control,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy,
        className: `${classes.control} ${error ? classes.invalid : classes.valid}`,
        ...(check && {
          "data-msg-required": check.required,
          "data-msg-too-long": check.tooLong,
          "data-msg-invalid": check.invalid,
          "data-msg-too-short": check.tooShort,
          "data-min": check.min?.toString(),
          "data-error-class": classes.error,
          "data-error-testid": errorTestId,
          "data-valid-class": classes.valid,
          "data-invalid-class": classes.invalid,
          "data-keep-hint": keepHint ? "" : undefined,
        }),
      })}
      {showHint && (
        <p id={ids.hint} className={classes.hint}>
          {hint}
        </p>
      )}
      {error && (
        <p id={ids.error} className={classes.error} data-testid={errorTestId}>
          {t(error, errorValues)}
        </p>
      )}
    </div>
  );
}

type ControlOwn<E> = Omit<E, "id" | "className" | "aria-invalid" | "aria-describedby"> & { controlClassName?: string };

/** A field's own props apart from its control's (which may add classes to the look's with `controlClassName`). */
function split<C>({
  id,
  label,
  error,
  errorValues,
  hint,
  look,
  requiredMark,
  keepHint,
  errorTestId,
  className,
  dataField,
  check,
  controlClassName,
  ...control
}: FieldOptions & { controlClassName?: string } & C) {
  const field = { id, label, error, errorValues, hint, look, requiredMark, keepHint, errorTestId, className, dataField, check };
  const classes = (base: string) => (controlClassName ? `${base} ${controlClassName}` : base);
  return { field, classes, control };
}

/** A field whose control is an <input>; its other props go to the input. */
export function InputField(props: FieldOptions & ControlOwn<InputHTMLAttributes<HTMLInputElement>>) {
  const { field, classes, control } = split(props);
  return <Field {...field}>{(tie) => <input {...tie} {...control} className={classes(tie.className)} />}</Field>;
}

/** A field whose control is a <textarea>; its other props go to the textarea. */
export function TextAreaField(props: FieldOptions & ControlOwn<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  const { field, classes, control } = split(props);
  return <Field {...field}>{(tie) => <textarea {...tie} {...control} className={classes(tie.className)} />}</Field>;
}
