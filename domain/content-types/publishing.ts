/**
 * What every content type has besides its fields (back-office.md §5): a status, a publish time and a slug,
 * and the rules that turn an editor's input into them. Free of zod: the reading side imports the status and
 * slug rules; ./schema.ts builds the form's parsers on them.
 */
import { EDITOR_STATUSES, type EditorStatus } from "./define.ts";

/** A slug keeps letters of any script and digits: an Arabic title makes an Arabic slug (the spec's \w rule made it empty). */
export const PAGE_SLUG_PATTERN = /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u;
export const PAGE_SLUG_MAX = 120;

/** The slug a title makes: lower case, spaces to hyphens, anything but letters, digits and hyphens removed. */
export function slugify(title: string): string {
  return title
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u064B-\u065F\u0670\u0640]/g, "") // harakat and tatweel do not belong in a URL
    .replace(/[\s_]+/g, "-")
    .replace(/[^\p{L}\p{N}-]/gu, "")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, PAGE_SLUG_MAX)
    .replace(/-$/, "");
}

/** Whether a publish_date input names a zone; without one it is the site's time, UTC (Nouakchott's). */
const ZONED = /Z|[+-]\d\d:?\d\d$/;

/** The date a publish_date input stands for (no zone given: the site's time, UTC, Nouakchott's). */
export function parsePublishDate(value: string | null, now = new Date()): Date {
  if (!value) return now;
  return new Date(ZONED.test(value) ? value : `${value}Z`);
}

/** Whether a publish_date input (an ISO date-time or the editor's datetime-local value) is a date at all. */
export const isPublishDate = (value: string) => !Number.isNaN(Date.parse(ZONED.test(value) ? value : `${value}Z`));

export const isEditorStatus = (value: string): value is EditorStatus => (EDITOR_STATUSES as readonly string[]).includes(value);

/** The status an editor sees: published with a publish time still to come is "scheduled"; the review states as stored. */
export function editorStatusOf(status: string, publishDate: Date | string, now = new Date()): EditorStatus {
  if (status === "review" || status === "changes_requested" || status === "approved") return status;
  if (status !== "published") return "draft";
  return new Date(publishDate) > now ? "scheduled" : "published";
}
