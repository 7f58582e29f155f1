/**
 * A file input in the page's language (issue 28): the browser's own button says «Choose File / No file
 * chosen» in the browser's language, whatever the page's. Here the real `<input type="file">` stays in the
 * form (it posts, it takes the keyboard's focus and opens the chooser on Space or Enter, tests set files on
 * it) but is visually hidden; a button-like label opens it, and the chosen file's name (or "no file chosen")
 * shows beside it in the page's language, read out with the control (`aria-describedby`).
 *
 * Use it inside a `Field` by spreading the field's control props except `className` (a text box's look):
 * `{({ className, ...control }) => <FileInput {...control} name="file" accept="video/*" />}`.
 */
import { useEffect, useId, useRef, useState, type ChangeEvent, type InputHTMLAttributes, type ReactNode } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import { formatList } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";

export type FileInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "value" | "defaultValue"> & {
  /** The button's words (default «اختر ملفاً» / «اختر ملفات» in the page's language). */
  buttonLabel?: ReactNode;
  /** Classes added to the wrapper (a width, a margin). */
  className?: string;
  "data-testid"?: string;
};

/** The names shown for a selection, in the page's language (a list of several: «أ، ب و ج»). */
export function chosenFilesText(names: string[], lang: Language): string | null {
  return names.length ? formatList(names, lang) : null;
}

export function FileInput({ id: givenId, buttonLabel, className, onChange, multiple, disabled, "aria-describedby": describedBy, ...input }: FileInputProps) {
  const { t, i18n } = useTranslation();
  const autoId = useId();
  const id = givenId ?? `file-${autoId}`;
  const nameId = `${id}-chosen`;
  const ref = useRef<HTMLInputElement>(null);
  const [names, setNames] = useState<string[]>([]);

  // A form reset empties the input without a change event: the name shown goes with it.
  useEffect(() => {
    const form = ref.current?.form;
    if (!form) return;
    const reset = () => setNames([]);
    form.addEventListener("reset", reset);
    return () => form.removeEventListener("reset", reset);
  }, []);

  function changed(event: ChangeEvent<HTMLInputElement>) {
    setNames([...(event.currentTarget.files ?? [])].map((f) => f.name));
    onChange?.(event);
  }

  const shown = chosenFilesText(names, i18n.language as Language);
  return (
    <div className={["flex min-h-11 flex-wrap items-center gap-x-3 gap-y-1", className].filter(Boolean).join(" ")} data-file-input="">
      <input
        {...input}
        ref={ref}
        id={id}
        type="file"
        multiple={multiple}
        disabled={disabled}
        onChange={changed}
        aria-describedby={[describedBy, nameId].filter(Boolean).join(" ")}
        className="peer sr-only"
      />
      <label
        htmlFor={id}
        className="inline-flex h-11 shrink-0 cursor-pointer items-center rounded-md border border-sand-300 bg-sand-100 px-4 text-sm font-bold text-ink select-none hover:bg-sand-200 peer-focus-visible:ring-2 peer-focus-visible:ring-desert-500 peer-focus-visible:ring-offset-1 peer-disabled:cursor-not-allowed peer-disabled:opacity-60 peer-aria-[invalid=true]:border-red-600"
        data-file-button=""
      >
        {buttonLabel ?? t(multiple ? "formControls.file.chooseMany" : "formControls.file.choose")}
      </label>
      <span
        id={nameId}
        className={`min-w-0 flex-1 truncate text-sm ${shown ? "text-ink" : "text-ink-soft"}`}
        dir={shown ? "auto" : undefined}
        title={shown ?? undefined}
        data-testid={input["data-testid"] ? `${input["data-testid"]}-name` : undefined}
      >
        {shown ?? t("formControls.file.none")}
      </span>
    </div>
  );
}
