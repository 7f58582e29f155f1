/**
 * The newsroom editor's form, read the same way on both sides: which inputs a type's form has, their values
 * as the page shows them, and the object the type's one schema (formSchemaOf) validates. The browser runs
 * the schema for inline messages; the server action runs it again before it stores an image, and the data
 * layer has the last word.
 */
import { fieldErrorsOf, type FieldErrors } from "./schemas/shared.ts";
import { contentTypeBySegment, isRelationField, type ContentTypeDefinition, type EditorStatus } from "./content-types/index.ts";
import { formSchemaOf } from "./content-types/schema.ts";

/** The content type behind a back-office URL (/admin/{segment}/…), whichever route id served it. */
export function contentTypeOfUrl(url: string): ContentTypeDefinition | undefined {
  return contentTypeBySegment(new URL(url).pathname.split("/")[2]?.replace(/\.data$/, ""));
}

/** The publishing section's inputs, common to every type. */
export const PUBLISHING_FIELDS = ["status", "publish_date", "page_slug"] as const;

/** Form-only inputs beside an image field `x`: the chosen file and the "remove the image" box. */
export const imageFileInput = (field: string) => `${field}__file`;
export const imageRemoveInput = (field: string) => `${field}__remove`;
/** Beside an image field `x`: the URL of a media library file chosen for it (the server checks the library has it). */
export const imageLibraryInput = (field: string) => `${field}__library`;

/** back-office.md §9: images up to 10 MB (the browser's early check; server/media/storage/index.server.ts enforces it). */
export const IMAGE_LIMIT_MB = 10;

/** The concurrency token the editor opened, and the newer one a refused save offers to overwrite. */
export const UPDATED_AT_INPUT = "updated_at";
export const OVERWRITE_INPUT = "overwrite_updated_at";

export type FormValues = Record<string, string>;

/** A stored or posted value as text: strings and numbers as they are, anything else (null, a File) as "". */
export function asText(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : "";
}

/**
 * A relation as its form input holds it: author ids, or tag names, separated by commas (a tag name has none:
 * the parser splits on them). An item's `[{ id, name }]`, or a kept draft's text as it is.
 */
export function relationText(kind: string, value: unknown): string {
  if (!Array.isArray(value)) return asText(value);
  const key = kind === "authors" ? "id" : "name";
  return value.map((entry: unknown) => asText(entry && typeof entry === "object" ? (entry as Record<string, unknown>)[key] : entry)).join(",");
}

/** Every input name of a type's schema: its fields, then status, publish date and slug. */
export function formFieldNames(def: ContentTypeDefinition): string[] {
  return [...def.fields.map((f) => f.name), ...PUBLISHING_FIELDS];
}

/** A posted form (or the live one in the browser) as strings by field name; files are left out. */
export function formValuesOf(def: ContentTypeDefinition, form: FormData): FormValues {
  const values: FormValues = {};
  for (const name of formFieldNames(def)) {
    values[name] = asText(form.get(name));
  }
  return values;
}

/** "2025-03-01T09:30:00.000Z" as a datetime-local value in the site's time (UTC, as the registry reads it). */
export function toDateTimeLocal(iso: string | null | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString().slice(0, 16);
}

/** The editor's starting values: a saved item's, or a new item's defaults. */
export function initialValues(def: ContentTypeDefinition, item: Record<string, unknown> | null): FormValues {
  const values: FormValues = {};
  for (const field of def.fields) {
    const raw = item ? item[field.name] : field.defaultValue;
    values[field.name] =
      field.kind === "boolean"
        ? raw === true || raw === "true" || raw === "on"
          ? "on"
          : ""
        : isRelationField(field)
          ? relationText(field.kind, raw)
          : asText(raw);
  }
  values.status = item ? asText(item.status) || "draft" : ("published" satisfies EditorStatus);
  values.publish_date = item ? toDateTimeLocal(item.publish_date as string) : "";
  values.page_slug = item ? asText(item.page_slug) : "";
  return values;
}

/** The type's schema run on form values: the translation key of each field's first problem, or none. */
export function checkFormValues(def: ContentTypeDefinition, values: FormValues): FieldErrors {
  const result = formSchemaOf(def.type).safeParse(values);
  return result.success ? {} : fieldErrorsOf(result.error);
}
