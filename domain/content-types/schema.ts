/**
 * The one schema of a content type's form, built from its definition's fields (their kind and rules) plus
 * the publishing fields every type has. It runs on both sides — the editor validates in the browser with
 * the same schema the server enforces — and it is the only part of the content-type registry that carries
 * zod, so only the screens that validate a form pay for it.
 *
 * Every field arrives as a string (a form) or a JSON value; blank optional fields become null. Messages are
 * translation keys under `newsroom.v` (domain/locales): the Arabic file carries the spec's words verbatim, the
 * JSON API answers in Arabic.
 */
import { z } from "zod/mini";
import { AUTHORS_MAX, TAG_NAME_MAX, TAGS_MAX, v, type FieldDefinition } from "./define.ts";
import { isEditorStatus, isPublishDate, PAGE_SLUG_MAX, PAGE_SLUG_PATTERN, parsePublishDate, slugify } from "./publishing.ts";
import { definitionOf, type ContentType } from "./index.ts";
import { parseId } from "#domain/ids.ts";

const text = (value: unknown) => (typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "");
const orNull = (value: unknown) => text(value) || null;

/** Length of the readable text of a rich-text body (tags and entities do not count). */
export const textLength = (html: string) =>
  html
    .replace(/<[^>]*>/g, "")
    .replace(/&[a-z#0-9]+;/gi, " ")
    .trim().length;

const TOO_LONG = v("tooLong");
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function requiredText(min: number, message: string, max: number, tooLong: string) {
  return z.pipe(z.transform(text), z.string().check(z.minLength(min, message), z.maxLength(max, tooLong)));
}
function optionalText(max: number) {
  return z.pipe(z.transform(orNull), z.nullable(z.string().check(z.maxLength(max, TOO_LONG))));
}
/** An optional value that, when given, matches `pattern` (and is no longer than a URL may be). */
function optionalMatching(pattern: RegExp, message: string, max?: number) {
  const checks = max === undefined ? [z.regex(pattern, message)] : [z.maxLength(max, TOO_LONG), z.regex(pattern, message)];
  return z.pipe(z.transform(orNull), z.nullable(z.string().check(...checks)));
}
/** A stored file's URL: a path on this site, or http(s). */
const fileUrl = optionalMatching(/^(?:\/[^/\\]|https?:\/\/)\S*$/i, v("fileUrl"), 2048);
/** A hosted video id (UUID) or a URL. */
const videoRef = optionalMatching(/^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\/[^/\\]\S*|https?:\/\/\S+)$/i, v("videoRef"), 2048);
/** A WebVTT captions file's URL: a path on this site or http(s), naming a .vtt file. */
const captionsUrl = optionalMatching(/^(?:\/[^/\\]|https?:\/\/)\S*\.vtt(?:[?#]\S*)?$/i, v("captionsUrl"), 2048);
/** An absolute web address: http(s), a host, no spaces (a canonical URL). */
const ABSOLUTE_URL = /^https?:\/\/[^\s/?#]+\.[^\s/?#]+(?:[/?#]\S*)?$/i;
const flag = z.pipe(
  z.transform((value: unknown) => value === true || value === "true" || value === "on" || value === "1"),
  z.boolean(),
);

/**
 * A relation's values: a JSON array (of values or of the `{ id, name }` objects the API answers with, so an item
 * read can be sent back), or a form's one string, split on commas (Latin or Arabic) and new lines.
 */
function listOf(value: unknown, key: "id" | "name"): unknown[] {
  if (Array.isArray(value)) return value.map((entry: unknown) => (entry && typeof entry === "object" ? (entry as Record<string, unknown>)[key] : entry));
  // Anything else that is not text (an object, a boolean) names nothing.
  return text(value).split(/[,\u060C\n]/);
}
const unique = <T>(values: T[]) => [...new Set(values)];

/** A foreign key's text: an id in its column's range (domain/ids.ts), so none past it reaches the database. */
const isIdText = (message: string) => z.refine((value: unknown) => parseId(value) !== null, message);

/** Author profile ids in byline order: whole numbers, each once, AUTHORS_MAX at most. */
const authorIds = (message: string) =>
  z.pipe(
    z.pipe(
      z.transform((value: unknown) => unique(listOf(value, "id").map(text).filter(Boolean))),
      z.array(z.string().check(isIdText(message))).check(z.maxLength(AUTHORS_MAX, v("authorsMax"))),
    ),
    z.transform((ids: string[]) => ids.map(Number)),
  );

/** Tag names as typed, spaces tidied, each once, TAGS_MAX at most. */
const tagNames = (message: string) =>
  z.pipe(
    z.transform((value: unknown) =>
      unique(
        listOf(value, "name")
          .map((name) => text(name).replace(/\s+/g, " "))
          .filter(Boolean),
      ),
    ),
    z.array(z.string().check(z.maxLength(TAG_NAME_MAX, message))).check(z.maxLength(TAGS_MAX, v("tagsMax"))),
  );

/** A field's parser, from its kind and its rules. */
function parserOf(field: FieldDefinition): z.ZodMiniType {
  const { kind, required, min = 1, max = 500, message = v("invalid"), tooLong = TOO_LONG } = field;
  switch (kind) {
    case "text":
    case "textarea": {
      if (!required) return optionalText(max);
      const schema = requiredText(min, message, max, tooLong);
      if (!field.plainText) return schema;
      return z.pipe(schema, z.string().check(z.refine((value) => value.replace(/<[^>]*>/g, "").trim().length >= min, field.plainText)));
    }
    case "richtext":
      if (!required) return optionalText(field.max ?? 500_000);
      return z.pipe(
        z.transform(text),
        z.string().check(
          z.refine((html) => textLength(html) >= min, message),
          z.maxLength(field.max ?? 500_000, tooLong),
        ),
      );
    case "select": {
      const options: readonly string[] = field.options ?? [];
      return z.pipe(z.transform(text), z.string().check(z.refine((value) => options.includes(value), message)));
    }
    case "category":
      return z.pipe(z.transform(text), z.string().check(isIdText(message)));
    case "integer":
      return optionalMatching(/^\d{1,6}$/, v("integer"));
    case "reference":
      return z.pipe(z.transform(orNull), z.nullable(z.string().check(isIdText(message))));
    case "date":
      return required ? z.pipe(z.transform(text), z.string().check(z.regex(DATE, message))) : optionalMatching(DATE, v("date"));
    case "image":
    case "audio":
      return fileUrl;
    case "video":
    case "file":
      return videoRef;
    case "captions":
      return captionsUrl;
    case "url":
      return optionalMatching(ABSOLUTE_URL, message, max);
    case "boolean":
      return flag;
    case "authors":
      return authorIds(message);
    case "tags":
      return tagNames(message);
  }
}

// ---- Publishing fields, common to every type ----

const PUBLISH_MESSAGES = { status: v("status"), publishDate: v("publishDate"), scheduledInPast: v("scheduledInPast"), slug: v("slug") };

const publishing = {
  status: z.pipe(
    z.transform((value: unknown) => text(value) || "draft"),
    z.string().check(z.refine(isEditorStatus, PUBLISH_MESSAGES.status)),
  ),
  /** An ISO date-time or the editor's datetime-local value (site time, UTC); blank means now. */
  publish_date: z.pipe(z.transform(orNull), z.nullable(z.string().check(z.refine(isPublishDate, PUBLISH_MESSAGES.publishDate)))),
  page_slug: z.pipe(
    z.transform((value: unknown) => slugify(text(value)) || null),
    z.nullable(z.string().check(z.maxLength(PAGE_SLUG_MAX, TOO_LONG), z.regex(PAGE_SLUG_PATTERN, PUBLISH_MESSAGES.slug))),
  ),
};

const schemas = new Map<ContentType, z.ZodMiniType>();

/**
 * The one schema of a type's form: its fields plus status, publish date and slug. A scheduled status needs a
 * publish date still to come. Output keys are the spec's field names.
 */
export function formSchemaOf(type: ContentType): z.ZodMiniType<Record<string, unknown>> {
  let schema = schemas.get(type);
  if (!schema) {
    const shape: Record<string, z.ZodMiniType> = { ...publishing };
    for (const field of definitionOf(type).fields) shape[field.name] = parserOf(field);
    schema = z.object(shape).check(
      z.refine((item: Record<string, unknown>) => item.status !== "scheduled" || parsePublishDate(item.publish_date as string | null) > new Date(), {
        message: PUBLISH_MESSAGES.scheduledInPast,
        path: ["publish_date"],
      }),
    );
    schemas.set(type, schema);
  }
  return schema as z.ZodMiniType<Record<string, unknown>>;
}
