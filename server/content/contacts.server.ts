/**
 * Contact messages (public-site.md §3 "contact message", §7 "contacts (public): insert"). A message arrives
 * with status `new` (unread); the back-office inbox (/admin/contacts, /api/admin/contacts) moves it to `read`
 * and `replied`, and deletes it.
 */
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { contacts } from "#server/db/schema.server.ts";
import {
  CONTACTS_PAGE_SIZE,
  CONTACT_PREVIEW_CHARS,
  contactIdOf,
  isContactStatus,
  type ContactFilter,
  type ContactKind,
  type ContactStatus,
} from "#domain/contacts.ts";
import { ContactSchema, type ContactField } from "#domain/schemas/contact.ts";
import { fieldErrorsOf, type FieldErrors } from "#domain/schemas/shared.ts";
import { arabic, NotFoundError, ValidationError } from "#server/http/errors.server.ts";

/**
 * Messages accepted per client address: 5 in 10 minutes is more than a person writes, and stops a script.
 * A refused visitor keeps the text in the form and is told to wait, so no genuine message is lost.
 */
export const CONTACT_RATE_LIMIT = { limit: 5, windowMs: 10 * 60 * 1000 } as const;

/** Input that fails the contact schema (400): `fieldErrors` (and `fields`) hold one message key per field. */
export class ContactInputError extends ValidationError {
  constructor(readonly fieldErrors: FieldErrors<ContactField>) {
    super(`Invalid contact message: ${Object.keys(fieldErrors).join(", ")}`, fieldErrors as Record<string, string>, {
      status: 400,
      code: "INVALID_CONTACT_MESSAGE",
    });
  }
}

/**
 * Stores a message from a visitor. Every field goes through the contact schema here too (sanitised,
 * required, within its limit), whoever the caller is, so no stored row can carry markup into the
 * back-office or an e-mail. Throws ContactInputError for invalid input; database errors propagate.
 */
export async function createContactMessage(db: Database, input: Record<ContactField, unknown>, { kind = "message" as ContactKind } = {}) {
  const parsed = ContactSchema.safeParse(input);
  if (!parsed.success) throw new ContactInputError(fieldErrorsOf<ContactField>(parsed.error));
  const [row] = await db
    .insert(contacts)
    .values({ ...parsed.data, status: "new", kind })
    .returning({ id: contacts.id, createdAt: contacts.createdAt });
  return row;
}

/**
 * The opinion page's write-article box: a reader proposes an article to the newsroom. It is stored as a
 * contact message of its own kind (kind 'article_proposal', status 'new'), so it lands in the back-office
 * inbox beside ordinary messages and can be filtered apart. The caller has checked ArticleProposalSchema
 * (domain/schemas/newsletter.ts); the contact schema checks the row again here.
 */
export function createArticleProposal(db: Database, proposal: { name: string; email: string; title: string; summary: string }) {
  return createContactMessage(
    db,
    { name: proposal.name, email: proposal.email, subject: proposal.title, message: proposal.summary },
    { kind: "article_proposal" },
  );
}

// ---- The back-office inbox (back-office.md §2 "Contact inbox", §4 contact status, §5 "Contact deletion") ----

/** A message as the inbox lists it, under the spec's field names. */
export type ContactSummary = {
  id: number;
  name: string;
  email: string;
  subject: string;
  /** The first 60 characters of the message, with an ellipsis when there is more. */
  preview: string;
  status: ContactStatus;
  kind: ContactKind;
  created_at: string;
};
/** A whole message, as the detail pane and the API show it. */
export type ContactDetail = Omit<ContactSummary, "preview"> & { message: string; updated_at: string };
export type ContactCounts = Record<ContactFilter, number>;
export type ContactPage = { items: ContactSummary[]; total: number; page: number; perPage: number; pages: number; counts: ContactCounts };

/** A change refused field by field (422 VALIDATION), one translation key per field (contacts.* in domain/locales). */
const invalidUpdate = (fields: Record<string, string>) => new ValidationError(arabic("contacts.updateFailed"), fields);

/** No message by that id (404 NOT_FOUND). */
export const contactNotFound = () => new NotFoundError(arabic("contacts.notFound"));

const detailColumns = {
  id: contacts.id,
  name: contacts.name,
  email: contacts.email,
  subject: contacts.subject,
  message: contacts.message,
  status: contacts.status,
  kind: contacts.kind,
  createdAt: contacts.createdAt,
  updatedAt: contacts.updatedAt,
};

const toDetail = (row: { [K in keyof typeof detailColumns]: (typeof detailColumns)[K]["_"]["data"] }): ContactDetail => ({
  id: row.id,
  name: row.name,
  email: row.email,
  subject: row.subject,
  message: row.message,
  status: row.status,
  kind: row.kind,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/**
 * Newest first, the id breaking ties so pages never repeat or skip a message. "nulls last" is the order of the
 * indexes on created_at (created_at is never null): with it the database walks an index instead of sorting the table.
 */
const NEWEST_FIRST = [sql`${contacts.createdAt} desc nulls last`, desc(contacts.id)];

/**
 * One page of the inbox, newest first, and the count of every filter. The filter, the counts, the order and
 * the preview are all computed by the database: only the 50 rows shown and their first 60 characters leave it.
 * A page past the end is empty (a client walking the pages stops there).
 */
export async function listContacts(db: Database, query: { status?: ContactFilter; page?: number; perPage?: number } = {}): Promise<ContactPage> {
  const status = query.status ?? "all";
  const perPage = Math.min(Math.max(1, Math.trunc(query.perPage ?? CONTACTS_PAGE_SIZE)), 100);
  const page = Math.max(1, Math.trunc(query.page ?? 1));
  const where = status === "all" ? undefined : eq(contacts.status, status);
  // The page's ids first, walking the created_at index; only its 50 rows are then read whole and cut to
  // their preview (cutting every skipped row of a deep page cost ten times more at 10,000 messages).
  const pageIds = db
    .select({ id: contacts.id })
    .from(contacts)
    .where(where)
    .orderBy(...NEWEST_FIRST)
    .limit(perPage)
    .offset((page - 1) * perPage)
    .as("page_ids");
  const [rows, [tally]] = await Promise.all([
    db
      .select({
        id: contacts.id,
        name: contacts.name,
        email: contacts.email,
        subject: contacts.subject,
        preview: sql<string>`left(${contacts.message}, ${CONTACT_PREVIEW_CHARS})`,
        longer: sql<boolean>`char_length(${contacts.message}) > ${CONTACT_PREVIEW_CHARS}`,
        status: contacts.status,
        kind: contacts.kind,
        createdAt: contacts.createdAt,
      })
      .from(contacts)
      .innerJoin(pageIds, eq(contacts.id, pageIds.id))
      .orderBy(...NEWEST_FIRST),
    db
      .select({
        all: count(),
        new: sql<number>`count(*) filter (where ${contacts.status} = 'new')`,
        read: sql<number>`count(*) filter (where ${contacts.status} = 'read')`,
        replied: sql<number>`count(*) filter (where ${contacts.status} = 'replied')`,
      })
      .from(contacts),
  ]);
  const counts: ContactCounts = {
    all: Number(tally?.all ?? 0),
    new: Number(tally?.new ?? 0),
    read: Number(tally?.read ?? 0),
    replied: Number(tally?.replied ?? 0),
  };
  const total = counts[status];
  return {
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      subject: r.subject,
      preview: r.longer ? `${r.preview.trimEnd()}…` : r.preview,
      status: r.status,
      kind: r.kind,
      created_at: new Date(r.createdAt).toISOString(),
    })),
    total,
    page,
    perPage,
    pages: Math.max(1, Math.ceil(total / perPage)),
    counts,
  };
}

/** A whole message, or null. Reading it here changes nothing (the API's GET is safe). */
export async function getContact(db: Database, id: number): Promise<ContactDetail | null> {
  if (!contactIdOf(id)) return null;
  const [row] = await db.select(detailColumns).from(contacts).where(eq(contacts.id, id)).limit(1);
  return row ? toDetail(row) : null;
}

/**
 * A message opened in the inbox: a new one becomes read (back-office.md §4), in one statement that only
 * touches it while it is still new, so two people opening it at once change it once (`markedRead` is true for
 * the one who did). Null when it does not exist.
 */
export async function openContact(db: Database, id: number): Promise<{ message: ContactDetail; markedRead: boolean } | null> {
  if (!contactIdOf(id)) return null;
  const [opened] = await db
    .update(contacts)
    .set({ status: "read", updatedAt: sql`now()` })
    .where(and(eq(contacts.id, id), eq(contacts.status, "new")))
    .returning(detailColumns);
  if (opened) return { message: toDetail(opened), markedRead: true };
  const message = await getContact(db, id);
  return message && { message, markedRead: false };
}

/**
 * Sets a message's status (the inbox toggles between replied and read; the API may also put it back to new).
 * Throws a ValidationError for a status that is not one of the three, a NotFoundError (contactNotFound) for
 * an unknown id; nothing is changed in either case.
 */
export async function setContactStatus(db: Database, id: number, status: unknown): Promise<ContactDetail> {
  if (!isContactStatus(status)) throw invalidUpdate({ status: "contacts.invalidStatus" });
  if (!contactIdOf(id)) throw contactNotFound();
  const [row] = await db
    .update(contacts)
    .set({ status, updatedAt: sql`now()` })
    .where(eq(contacts.id, id))
    .returning(detailColumns);
  if (!row) throw contactNotFound();
  return toDetail(row);
}

/** A JSON change of a message is a few bytes: `{"status": "replied"}`. */
export const CONTACT_JSON_MAX_BYTES = 4 * 1024;

/**
 * A change sent to the API: only `status` may change (a visitor's words are theirs). Any other field, or a
 * missing or unknown status, is refused field by field with a ValidationError, and nothing is changed.
 */
export function updateContact(db: Database, id: number, changes: Record<string, unknown>): Promise<ContactDetail> {
  const errors: Record<string, string> = {};
  for (const field of Object.keys(changes)) if (field !== "status") errors[field] = "contacts.readOnlyField";
  if (!isContactStatus(changes.status)) errors.status = "contacts.invalidStatus";
  if (Object.keys(errors).length) return Promise.reject(invalidUpdate(errors));
  return setContactStatus(db, id, changes.status);
}

/** Deletes a message for good. Throws a NotFoundError (contactNotFound) when there is none by that id. */
export async function deleteContact(db: Database, id: number): Promise<void> {
  if (!contactIdOf(id)) throw contactNotFound();
  const deleted = await db.delete(contacts).where(eq(contacts.id, id)).returning({ id: contacts.id });
  if (!deleted.length) throw contactNotFound();
}
