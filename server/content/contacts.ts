/**
 * Contact messages (public-site.md §3 "contact message", §7 "contacts (public): insert"). A message arrives
 * with status `new` (unread); the back-office moves it to `read` and `replied`.
 */
import type { Database } from "../db/client.ts";
import { contacts, type CONTACT_KINDS } from "../db/schema.ts";
import { ContactSchema, type ContactField } from "../../app/lib/schemas/contact.ts";
import { fieldErrorsOf, type FieldErrors } from "../../app/lib/schemas/shared.ts";
import { createRateLimiter } from "../rate-limit.ts";

/**
 * Messages accepted per client address: 5 in 10 minutes is more than a person writes, and stops a script.
 * A refused visitor keeps the text in the form and is told to wait, so no genuine message is lost.
 */
export const CONTACT_RATE_LIMIT = { limit: 5, windowMs: 10 * 60 * 1000 } as const;
export const contactRateLimiter = createRateLimiter(CONTACT_RATE_LIMIT);

export type ContactKind = (typeof CONTACT_KINDS)[number];

/** Input that fails the contact schema; `fieldErrors` holds one message key per field. */
export class ContactInputError extends Error {
  readonly code = "INVALID_CONTACT_MESSAGE";
  constructor(readonly fieldErrors: FieldErrors<ContactField>) {
    super(`Invalid contact message: ${Object.keys(fieldErrors).join(", ")}`);
    this.name = "ContactInputError";
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
 * (app/lib/schemas/newsletter.ts); the contact schema checks the row again here.
 */
export function createArticleProposal(db: Database, proposal: { name: string; email: string; title: string; summary: string }) {
  return createContactMessage(
    db,
    { name: proposal.name, email: proposal.email, subject: proposal.title, message: proposal.summary },
    { kind: "article_proposal" },
  );
}
