/**
 * A date (or date and time) control in the page's language and direction (issue 28): the browser's own
 * `type="date"` shows «mm/dd/yyyy» and its calendar in the browser's language, whatever the page's. Here the
 * day, the month (named, in the page's language), the year and, for a date-time, the hour and the minute are
 * separate labelled fields in a group, in the page's reading order; a hidden input carries the value the form
 * has always posted: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:mm` for a date-time (what `type="date"` and
 * `type="datetime-local"` sent). An empty control posts ""; a half-filled one posts what it has, so the
 * server's check names the field instead of the date being dropped silently.
 *
 * The parts carry `aria-required`, never `required`: the browser's own "Please fill out this field." would
 * speak the browser's language; the form's checks say it in the page's. Arabic and Latin digits are both accepted. Whoever sets the hidden input's value from outside (a draft
 * restored) dispatches an `input` event on it and the fields follow; a form reset brings back the default.
 */
import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Language } from "#domain/language.ts";

export type DateTimeMode = "date" | "datetime";

export type DateTimeInputProps = {
  /** The name the hidden input posts under. */
  name: string;
  /** The first field's id (the day), so a `<label htmlFor>` lands on it. */
  id?: string;
  mode?: DateTimeMode;
  /** `YYYY-MM-DD` or `YYYY-MM-DDTHH:mm` (seconds and anything after are ignored). */
  defaultValue?: string;
  required?: boolean;
  disabled?: boolean;
  /** The id of the field's label: the group is named by it. */
  "aria-labelledby"?: string;
  "aria-label"?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean | "true" | "false";
  /** On the hidden input (tests read the posted value there); the parts get `-day`, `-month`… */
  "data-testid"?: string;
  className?: string;
  /** The new posted value after each change. */
  onValueChange?: (value: string) => void;
};

/** `second` has no field: it is kept from a value set with seconds (a saved time), until the time is changed. */
export type DateTimeParts = { day: string; month: string; year: string; hour: string; minute: string; second?: string };

const EMPTY: DateTimeParts = { day: "", month: "", year: "", hour: "", minute: "" };

/** The same locales as domain/format.ts (Gregorian calendar, Latin digits: docs/decisions/0004-dates.md). */
const MONTH_LOCALES: Record<Language, string> = { ar: "ar-SA-u-ca-gregory-nu-latn", fr: "fr-FR", en: "en-GB" };

/** The twelve months' names in `lang`, January first. */
export function monthNames(lang: Language): string[] {
  const f = new Intl.DateTimeFormat(MONTH_LOCALES[lang] ?? lang, { month: "long", timeZone: "UTC" });
  return Array.from({ length: 12 }, (_, m) => f.format(Date.UTC(2000, m, 15)));
}

/** Arabic-Indic and Eastern Arabic-Indic digits as Latin ones; anything else that is not a digit goes. */
export function latinDigits(text: string): string {
  return text
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/\D/g, "");
}

/** A posted value split into the control's fields (nothing for what it cannot read). */
export function partsOf(value: string | undefined | null): DateTimeParts {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value ?? "");
  if (!m) return { ...EMPTY };
  const parts: DateTimeParts = { year: m[1], month: String(Number(m[2])), day: String(Number(m[3])), hour: m[4] ?? "", minute: m[5] ?? "" };
  if (m[6] && m[6] !== "00") parts.second = m[6];
  return parts;
}

const pad = (text: string, size: number) => (text ? text.padStart(size, "0") : "");

/** The value posted for the fields: "" when all are empty, else the ISO form of what is there. */
export function valueOf(parts: DateTimeParts, mode: DateTimeMode): string {
  const used = mode === "datetime" ? [parts.day, parts.month, parts.year, parts.hour, parts.minute] : [parts.day, parts.month, parts.year];
  if (used.every((p) => p === "")) return "";
  const date = `${parts.year}-${pad(parts.month, 2)}-${pad(parts.day, 2)}`;
  if (mode === "date") return date;
  return `${date}T${pad(parts.hour, 2)}:${pad(parts.minute, 2)}${parts.second ? `:${parts.second}` : ""}`;
}

const NUMBER_FIELD =
  "h-11 rounded-md border bg-white px-2 text-center text-base tabular-nums outline-none focus:ring-2 focus:ring-desert-500 disabled:bg-sand-50 disabled:opacity-70";

export function DateTimeInput({
  name,
  id: givenId,
  mode = "date",
  defaultValue,
  required,
  disabled,
  "aria-labelledby": labelledBy,
  "aria-label": ariaLabel,
  "aria-describedby": describedBy,
  "aria-invalid": ariaInvalid,
  "data-testid": testId,
  className,
  onValueChange,
}: DateTimeInputProps) {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language as Language) || "ar";
  const autoId = useId();
  const id = givenId ?? `date-${autoId}`;
  const hidden = useRef<HTMLInputElement>(null);
  const [parts, setParts] = useState<DateTimeParts>(() => partsOf(defaultValue));
  const months = useMemo(() => monthNames(lang), [lang]);
  const invalid = ariaInvalid === true || ariaInvalid === "true";
  const value = valueOf(parts, mode);
  const border = invalid ? "border-red-600" : "border-sand-300";

  const partsRef = useRef(parts);
  const posted = useRef(value);
  useEffect(() => {
    partsRef.current = parts;
    // Listeners on the form (a draft kept as it is typed) hear the posted value change, once it is in the DOM.
    if (posted.current !== value) {
      posted.current = value;
      // `input` reaches the form's onInput (its checks run again with the new value), `change` any other listener.
      hidden.current?.dispatchEvent(new Event("input", { bubbles: true }));
      hidden.current?.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }, [parts, value]);

  // A value set from outside on the hidden input (followed by an `input` event), and a form reset.
  useEffect(() => {
    const input = hidden.current;
    if (!input) return;
    const follow = () => {
      if (input.value !== valueOf(partsRef.current, mode)) setParts(partsOf(input.value));
    };
    const reset = () => setParts(partsOf(defaultValue));
    const form = input.form;
    input.addEventListener("input", follow);
    form?.addEventListener("reset", reset);
    return () => {
      input.removeEventListener("input", follow);
      form?.removeEventListener("reset", reset);
    };
  }, [defaultValue, mode]);

  function set(part: keyof DateTimeParts, text: string) {
    const next: DateTimeParts = { ...parts, [part]: text };
    if (part === "hour" || part === "minute") delete next.second;
    setParts(next);
    onValueChange?.(valueOf(next, mode));
  }
  const digits = (part: keyof DateTimeParts, size: number) => (e: ChangeEvent<HTMLInputElement>) =>
    set(part, latinDigits(e.currentTarget.value).slice(0, size));

  const number = (part: keyof DateTimeParts, size: number, width: string, label: string, fieldId?: string) => (
    <input
      id={fieldId}
      type="text"
      inputMode="numeric"
      autoComplete="off"
      dir="ltr"
      value={parts[part]}
      onChange={digits(part, size)}
      maxLength={size}
      placeholder={label}
      aria-label={label}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      aria-required={required || undefined}
      disabled={disabled}
      className={`${NUMBER_FIELD} ${border} ${width} placeholder:text-xs placeholder:text-ink-soft/70`}
      data-testid={testId ? `${testId}-${part}` : undefined}
    />
  );

  return (
    <div
      role="group"
      aria-labelledby={labelledBy}
      aria-label={labelledBy ? undefined : ariaLabel}
      className={["flex flex-wrap items-center gap-2", className].filter(Boolean).join(" ")}
      data-date-input={mode}
    >
      <input ref={hidden} type="hidden" name={name} value={value} data-testid={testId} />
      <span className="inline-flex items-center gap-2">
        {number("day", 2, "w-14", t("formControls.date.day"), id)}
        <select
          value={parts.month}
          onChange={(e) => set("month", e.currentTarget.value)}
          aria-label={t("formControls.date.month")}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          aria-required={required || undefined}
          disabled={disabled}
          className={`h-11 min-w-32 rounded-md border bg-white px-2 text-base outline-none focus:ring-2 focus:ring-desert-500 disabled:bg-sand-50 disabled:opacity-70 ${border}`}
          data-testid={testId ? `${testId}-month` : undefined}
        >
          <option value="">{t("formControls.date.month")}</option>
          {months.map((m, i) => (
            <option key={m} value={String(i + 1)}>
              {m}
            </option>
          ))}
        </select>
        {number("year", 4, "w-20", t("formControls.date.year"))}
      </span>
      {mode === "datetime" && (
        // Hours and minutes read left to right in every language, as a clock shows them.
        <span className="inline-flex items-center gap-1" dir="ltr" role="group" aria-label={t("formControls.date.time")}>
          {number("hour", 2, "w-14", t("formControls.date.hour"))}
          <span aria-hidden="true" className="font-bold">
            :
          </span>
          {number("minute", 2, "w-14", t("formControls.date.minute"))}
        </span>
      )}
    </div>
  );
}
