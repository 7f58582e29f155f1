import { useState, type FormEvent, type ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { RichTextField } from "#app/components/editor/rich-text-field.tsx";
import {
  checkFormValues,
  formValuesOf,
  IMAGE_LIMIT_MB,
  imageFileInput,
  imageRemoveInput,
  OVERWRITE_INPUT,
  UPDATED_AT_INPUT,
  type FormValues,
} from "#domain/content-form.ts";
import { EDITOR_STATUSES, publicUrl, slugify, type ContentTypeDefinition, type EditorStatus, type FieldDefinition } from "#domain/content-types/index.ts";
import { REVIEW_NOTE_INPUT, REVIEW_NOTE_MAX } from "#domain/workflow.ts";
import type { FieldErrors } from "#domain/schemas/shared.ts";
import type { Language } from "#domain/language.ts";
import { useToast } from "#app/components/ui/toast.tsx";
import { Field, fieldIds, type ControlProps } from "#app/components/forms/field.tsx";
import { DateTimeInput } from "#app/components/forms/date-time-input.tsx";
import { useFormCheck } from "#app/components/forms/form-check.ts";
import { Notice, SubmitButton } from "#app/components/forms/notice.tsx";
import { MediaRefField } from "./media-ref-field.tsx";
import { AuthorsField } from "./authors-field.tsx";
import { ImageField } from "./image-field.tsx";
import { TagsField } from "./tags-field.tsx";
import { SearchSharingSection } from "./search-sharing.tsx";

export type CategoryOption = { id: number; name: string; nameFr: string | null };
/** What a field that names another row offers, by field name: the type's categories, the items a reference field may name. */
export type FieldChoices = Partial<Record<string, CategoryOption[]>>;

export type ContentFormProps = {
  def: ContentTypeDefinition;
  /** The saved item's id and concurrency token, or null for a new item. */
  item: { id: number; updatedAt: string } | null;
  /** The starting values: the saved item's, or what was submitted when the server refused it. */
  values: FormValues;
  /** The server's messages by field (translation keys). */
  serverErrors: FieldErrors | undefined;
  choices: FieldChoices;
  /** The site's public origin, to show the item's address. */
  origin: string;
  /** Someone saved since this editor opened the item: their token, to overwrite on purpose. */
  conflict: { updatedAt: string; title: string } | null;
  /** The editor may add videos to the library (videos.manage): video fields then take an upload. */
  canUploadVideo: boolean;
  /** Called after any change in the form (a key, a choice, the rich text): the editor keeps its copy. */
  onChanged?: () => void;
  /** Shown above the save button: where the work is (saved, saving, kept on this device). */
  status?: ReactNode;
  /**
   * The statuses this account may set (domain/workflow.ts statusChoices; decision 0138), in order; and whether it
   * may send a story back (an editor: the note's field is shown). Every status when not given.
   */
  workflow?: { statuses: readonly EditorStatus[]; canSendBack: boolean };
};

/** Every control of the editor is `field-{name}` (its label `field-{name}-label`, its message `error-{name}`). */
const ids = (name: string) => fieldIds(`field-${name}`);

/** A field of the editor: the forms toolkit's Field, in the back-office's look. */
function EditorField({
  name,
  label,
  required,
  hint,
  error,
  group,
  children,
}: {
  name: string;
  label: string;
  required?: boolean;
  hint?: ReactNode;
  error?: string;
  group?: boolean;
  children: Parameters<typeof Field>[0]["children"];
}) {
  return (
    <Field
      id={ids(name).control}
      label={label}
      requiredMark={required}
      hint={hint}
      error={error}
      errorValues={{ max: IMAGE_LIMIT_MB }}
      errorTestId={`error-${name}`}
      dataField={name}
      group={group}
    >
      {children}
    </Field>
  );
}

/** One field of the type's definition, by its kind. */
function FieldControl({
  field,
  value,
  error,
  choices,
  onRichEdited,
  folder,
  canUploadVideo,
  placeholder,
}: {
  field: FieldDefinition;
  value: string;
  error?: string;
  choices: FieldChoices;
  onRichEdited: (name: string, html: string) => void;
  folder?: string;
  canUploadVideo: boolean;
  /** What a blank value stands for (search and sharing fields: the title, the summary). */
  placeholder?: string;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const id = ids(field.name);
  if (field.kind === "boolean") {
    return (
      <div className="flex items-center gap-2" data-field={field.name}>
        <input
          id={id.control}
          name={field.name}
          aria-invalid={error ? true : undefined}
          aria-required={field.required || undefined}
          data-testid={`input-${field.name}`}
          type="checkbox"
          value="on"
          defaultChecked={value === "on"}
          className="h-5 w-5"
        />
        <label htmlFor={id.control} id={id.label} className="text-sm font-bold">
          {t(field.label)}
        </label>
      </div>
    );
  }
  const latin = field.name.endsWith("_fr");
  const control = (props: ControlProps) => {
    const invalid = Boolean(props["aria-invalid"]);
    const describedBy = props["aria-describedby"];
    const common = { ...props, name: field.name, placeholder, "aria-required": field.required || undefined, "data-testid": `input-${field.name}` };
    switch (field.kind) {
      case "text":
        return (
          <input
            {...common}
            type="text"
            defaultValue={value}
            dir={latin ? "ltr" : "auto"}
            lang={latin ? "fr" : undefined}
            className={`${props.className} h-11`}
          />
        );
      case "textarea":
        return <textarea {...common} defaultValue={value} rows={field.rows ?? 3} dir="auto" className={`${props.className} py-2`} />;
      case "url":
        return <input {...common} type="url" inputMode="url" defaultValue={value} dir="ltr" className={`${props.className} h-11`} />;
      case "richtext":
        return (
          <RichTextField
            name={field.name}
            id={id.control}
            labelId={id.label}
            defaultValue={value}
            invalid={invalid}
            describedBy={describedBy}
            onEdited={(html) => onRichEdited(field.name, html)}
          />
        );
      case "select":
        return (
          <select {...common} defaultValue={value} className={`${props.className} h-11`}>
            {!field.defaultValue && <option value="">{t("newsroom.ui.choose")}</option>}
            {field.options?.map((o) => (
              <option key={o} value={o}>
                {t(`${field.optionLabels}.${o}`)}
              </option>
            ))}
          </select>
        );
      case "category":
      case "reference":
        return (
          <select {...common} defaultValue={value} className={`${props.className} h-11`}>
            <option value="">{t(field.blank ?? "newsroom.ui.choose")}</option>
            {(choices[field.name] ?? []).map((c) => (
              <option key={c.id} value={String(c.id)}>
                {lang === "ar" ? c.name : (c.nameFr ?? c.name)}
              </option>
            ))}
          </select>
        );
      case "integer":
        return (
          <input {...common} type="text" inputMode="numeric" pattern="[0-9]*" defaultValue={value} dir="ltr" className={`${props.className} h-11 max-w-40`} />
        );
      case "date":
        return (
          <DateTimeInput
            id={id.control}
            name={field.name}
            defaultValue={value}
            required={field.required}
            aria-labelledby={id.label}
            aria-describedby={describedBy}
            aria-invalid={props["aria-invalid"]}
            data-testid={`input-${field.name}`}
          />
        );
      // Relations: the byline picker (author ids) and the tag input (names), each posting one comma-separated input.
      case "authors":
        return <AuthorsField field={field} value={value} id={id.control} labelId={id.label} invalid={invalid} describedBy={describedBy} />;
      case "tags":
        return <TagsField name={field.name} value={value} control={props} />;
      case "image":
        return <ImageField field={field} value={value} invalid={invalid} describedBy={describedBy} folder={folder} id={id.control} />;
      case "audio":
      case "video":
      case "file":
      case "captions":
        return <MediaRefField field={field} value={value} invalid={invalid} describedBy={describedBy} folder={folder} canUploadVideo={canUploadVideo} />;
    }
  };
  const hint = field.hint ? t(field.hint) : field.kind === "image" ? t("newsroom.ui.imageHint", { max: IMAGE_LIMIT_MB }) : undefined;
  return (
    <EditorField name={field.name} label={t(field.label)} required={field.required} hint={hint} error={error}>
      {control}
    </EditorField>
  );
}

/** Status, publish date-time and slug (with the address readers will open). */
function PublishingSection({
  def,
  values,
  errors,
  itemId,
  origin,
  slugShown,
  workflow,
}: {
  def: ContentTypeDefinition;
  values: FormValues;
  errors: FieldErrors;
  itemId: number | null;
  origin: string;
  slugShown: string;
  workflow?: ContentFormProps["workflow"];
}) {
  const { t } = useTranslation();
  const address = slugShown ? origin + decodeURIComponent(publicUrl(def.type, slugShown, itemId ?? undefined)) : null;
  return (
    <fieldset className="space-y-4 rounded-lg border border-sand-200 bg-white p-4 shadow-sm" data-testid="publishing">
      <legend className="px-1 text-base font-bold">{t("newsroom.ui.publishing")}</legend>
      <EditorField name="status" label={t("newsroom.ui.status")} error={errors.status} group>
        {(control) => (
          <div role="radiogroup" aria-labelledby={ids("status").label} aria-describedby={control["aria-describedby"]} className="flex flex-wrap gap-2">
            {(workflow?.statuses ?? EDITOR_STATUSES).map((s) => (
              <label
                key={s}
                className="flex cursor-pointer items-center gap-2 rounded-md border border-sand-300 px-3 py-2 text-sm has-[:checked]:border-desert-600 has-[:checked]:bg-sand-50"
              >
                <input type="radio" name="status" value={s} defaultChecked={values.status === s} data-testid={`status-${s}`} />
                {t(`workflow.choice.${s}`)}
              </label>
            ))}
          </div>
        )}
      </EditorField>
      {workflow?.canSendBack && (
        <EditorField name={REVIEW_NOTE_INPUT} label={t("workflow.noteLabel")} hint={t("workflow.noteHint")} error={errors[REVIEW_NOTE_INPUT]}>
          {(control) => (
            <textarea
              {...control}
              name={REVIEW_NOTE_INPUT}
              defaultValue={values[REVIEW_NOTE_INPUT] ?? ""}
              rows={3}
              maxLength={REVIEW_NOTE_MAX}
              dir="auto"
              data-testid="input-review_note"
              className={`${control.className} py-2`}
            />
          )}
        </EditorField>
      )}
      <EditorField name="publish_date" label={t("newsroom.ui.publishDate")} hint={t("newsroom.ui.publishDateHint")} error={errors.publish_date}>
        {(control) => (
          <DateTimeInput
            id={control.id}
            name="publish_date"
            mode="datetime"
            defaultValue={values.publish_date}
            aria-labelledby={ids("publish_date").label}
            aria-describedby={control["aria-describedby"]}
            aria-invalid={control["aria-invalid"]}
            data-testid="input-publish_date"
          />
        )}
      </EditorField>
      <EditorField
        name="page_slug"
        label={t("newsroom.f.slug")}
        error={errors.page_slug}
        hint={
          <>
            {t("newsroom.ui.slugHint")}
            {address && (
              <>
                {" "}
                {t("newsroom.ui.publicAddress")}
                {/* A URL reads left to right as one isolated run in the Arabic page; it breaks mid-word only when it must. */}
                <bdi className="mt-1 block text-[0.85rem] text-ink [overflow-wrap:anywhere] [unicode-bidi:isolate]" dir="ltr" data-testid="public-address">
                  {address}
                </bdi>
              </>
            )}
          </>
        }
      >
        {(control) => (
          <input
            {...control}
            name="page_slug"
            type="text"
            dir="auto"
            defaultValue={values.page_slug}
            maxLength={120}
            data-testid="input-page_slug"
            className={`${control.className} h-11`}
          />
        )}
      </EditorField>
    </fieldset>
  );
}

/** Browser-only checks of a chosen image, before the bytes travel (the server checks the content). */
function imageErrors(def: ContentTypeDefinition, form: HTMLFormElement): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of def.fields.filter((f) => f.kind === "image")) {
    const input = form.elements.namedItem(imageFileInput(field.name));
    const file = input instanceof HTMLInputElement ? input.files?.[0] : undefined;
    if (!file) continue;
    if (!file.type.startsWith("image/")) errors[field.name] = "newsroom.v.fileUnsupported";
    else if (file.size > IMAGE_LIMIT_MB * 1024 * 1024) errors[field.name] = "newsroom.v.fileTooLarge";
  }
  return errors;
}

/**
 * The editor's form for any content type, rendered from its definition. It posts multipart/form-data to
 * the route's action, with or without JavaScript. With JavaScript it checks itself with the type's schema
 * first (the same one the server runs), then after each change of a field that shows a message.
 */
export function ContentForm({ def, item, values, serverErrors, choices, origin, conflict, canUploadVideo, onChanged, status, workflow }: ContentFormProps) {
  const { t } = useTranslation();
  const toast = useToast();
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const [slugInputs, setSlugInputs] = useState({ title: values.title ?? "", slug: values.page_slug ?? "" });
  const slugShown = slugify(slugInputs.slug) || slugify(slugInputs.title);

  const check = (form: HTMLFormElement, override: FormValues = {}): FieldErrors => {
    const current = { ...formValuesOf(def, new FormData(form)), ...override };
    for (const field of def.fields) {
      const remove = form.elements.namedItem(imageRemoveInput(field.name));
      if (remove instanceof HTMLInputElement && remove.checked) current[field.name] = "";
    }
    return { ...checkFormValues(def, current), ...imageErrors(def, form) };
  };
  // The publish date's rules depend on the status.
  const { errors, recheck, ...checks } = useFormCheck<string>(check, serverErrors, {
    controlId: (name) => ids(name).control,
    linked: { status: ["publish_date"] },
  });

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    // A file still on its way would be saved as an empty field.
    if (e.currentTarget.querySelector("[data-uploading]")) {
      e.preventDefault();
      toast({ title: t("newsroom.ui.fileUpload.waitTitle"), description: t("newsroom.ui.fileUpload.wait"), variant: "destructive" });
      return;
    }
    checks.onSubmit(e);
  };

  const onInput = (e: FormEvent<HTMLFormElement>) => {
    const target = e.target as HTMLInputElement;
    const name = target.name?.replace(/__(file|remove|library)$/, "");
    if (name === "title" || name === "page_slug") setSlugInputs((s) => ({ ...s, [name === "title" ? "title" : "slug"]: target.value }));
    if (name) recheck(e.currentTarget, name);
    onChanged?.();
  };

  const onRichEdited = (name: string, html: string) => {
    const form = document.getElementById("content-form");
    if (form instanceof HTMLFormElement) recheck(form, name, { [name]: html });
    onChanged?.();
  };

  const errorCount = Object.keys(errors).length;
  const lead = def.fields.filter((f) => !f.group && f.kind !== "image" && f.kind !== "boolean");
  const side = def.fields.filter((f) => !f.group && (f.kind === "image" || f.kind === "boolean"));
  const control = (field: FieldDefinition, placeholder?: string) => (
    <FieldControl
      key={field.name}
      field={field}
      value={values[field.name] ?? ""}
      error={errors[field.name]}
      choices={choices}
      onRichEdited={onRichEdited}
      folder={def.folders[field.name]}
      canUploadVideo={canUploadVideo}
      placeholder={placeholder}
    />
  );

  return (
    <Form
      id="content-form"
      method="post"
      encType="multipart/form-data"
      noValidate
      onSubmit={onSubmit}
      onInput={onInput}
      aria-busy={saving || undefined}
      data-state={saving ? "saving" : "idle"}
      data-testid="content-form"
      className="space-y-5"
    >
      {item && <input type="hidden" name={UPDATED_AT_INPUT} value={item.updatedAt} />}
      {errorCount > 0 && (
        <Notice tone="error" testId="form-errors">
          {t("newsroom.ui.checkFields")}
        </Notice>
      )}
      {conflict && (
        <div
          role="alert"
          className="space-y-3 rounded-md border border-s-4 border-amber-500 bg-amber-50 px-4 py-3 text-sm text-amber-950"
          data-testid="conflict"
        >
          <p className="font-bold">{t("newsroom.ui.conflictTitle")}</p>
          <p>{t("newsroom.v.conflict")}</p>
          <div className="flex flex-wrap gap-2">
            {item && (
              <a
                href={`/admin/${def.segment}/${item.id}`}
                target="_blank"
                rel="noopener"
                className="rounded-md border border-amber-400 bg-white px-3 py-1.5 font-bold hover:bg-amber-100"
                data-testid="conflict-open"
              >
                {t("newsroom.ui.conflictOpen")}
              </a>
            )}
            <button
              type="submit"
              name={OVERWRITE_INPUT}
              value={conflict.updatedAt}
              disabled={saving}
              className="rounded-md border border-amber-600 px-3 py-1.5 font-bold hover:bg-amber-100 disabled:opacity-60"
              data-testid="conflict-overwrite"
            >
              {t("newsroom.ui.conflictOverwrite")}
            </button>
          </div>
        </div>
      )}

      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-5">
          <div className="space-y-5 rounded-lg border border-sand-200 bg-white p-4 shadow-sm sm:p-6">{lead.map((f) => control(f))}</div>
          <SearchSharingSection def={def} values={values} origin={origin} errors={errors} control={control} />
        </div>
        <div className="space-y-5">
          <PublishingSection def={def} values={values} errors={errors} itemId={item?.id ?? null} origin={origin} slugShown={slugShown} workflow={workflow} />
          {side.length > 0 && <div className="space-y-5 rounded-lg border border-sand-200 bg-white p-4 shadow-sm">{side.map((f) => control(f))}</div>}
          <div className="flex flex-wrap gap-2">
            {status}
            <SubmitButton pending={saving} pendingLabel={t("admin.saving")} testId="save" className="flex-1 px-5 py-3">
              {t("admin.save")}
            </SubmitButton>
            <Link
              to={`/admin/${def.segment}`}
              aria-disabled={saving || undefined}
              className={`rounded-md border border-sand-300 bg-white px-5 py-3 font-bold hover:bg-sand-100 ${saving ? "pointer-events-none opacity-60" : ""}`}
              data-testid="cancel"
            >
              {t("admin.cancel")}
            </Link>
          </div>
        </div>
      </div>
    </Form>
  );
}
