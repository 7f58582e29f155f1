/**
 * The contact inbox's vocabulary, shared by the inbox screen and the server: a message's kinds and statuses,
 * the inbox filters, and how a message id is read from a URL or a form.
 */
import { parseId } from "./ids.ts";

/** public-site.md §3: a message from the contact form, or an article proposed from the opinion page. */
export const CONTACT_KINDS = ["message", "article_proposal"] as const;
export type ContactKind = (typeof CONTACT_KINDS)[number];
/** back-office.md §4 contact status. */
export const CONTACT_STATUSES = ["new", "read", "replied"] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];
export type ContactFilter = ContactStatus | "all";
export const CONTACT_FILTERS: readonly ContactFilter[] = ["all", ...CONTACT_STATUSES];

/** A page of the inbox: about a screenful on a desk, and small enough that a phone scrolls it without effort. */
export const CONTACTS_PAGE_SIZE = 50;
/** back-office.md §9: the list shows the first 60 characters of each message. */
export const CONTACT_PREVIEW_CHARS = 60;

export function isContactStatus(value: unknown): value is ContactStatus {
  return typeof value === "string" && (CONTACT_STATUSES as readonly string[]).includes(value);
}

export function isContactFilter(value: unknown): value is ContactFilter {
  return value === "all" || isContactStatus(value);
}

/** A message id from a URL or a form: an id of the contacts table's range, or null. */
export function contactIdOf(value: unknown): number | null {
  // Within the column's range (domain/ids.ts): fifteen digits reached PostgreSQL as "integer out of range".
  return parseId(value);
}
