import type { ContactFilter } from "#domain/contacts.ts";
import type { FormAnswer } from "#domain/form-answer.ts";

/** What the inbox shows, all of it in its URL: a filter, a page, the open message, the delete question. */
export type ContactsView = { status: ContactFilter; page: number; id?: number | null; confirm?: boolean };

/** The inbox URL of a view; defaults are left out so the plain /admin/contacts stays the inbox's address. */
export function hrefOf({ status, page, id, confirm }: ContactsView): string {
  const q = new URLSearchParams();
  if (status !== "all") q.set("status", status);
  if (page > 1) q.set("page", String(page));
  if (id) q.set("id", String(id));
  if (id && confirm) q.set("confirm", "delete");
  const query = q.toString();
  return `/admin/contacts${query ? `?${query}` : ""}`;
}

/** The inbox's action answer (app/routes/admin/contacts.tsx): a toast's title and message (translation keys). */
export type ContactsAnswer = FormAnswer<never, string> & { intent: "status" | "delete" | "unknown"; title: string; message: string; at: number };
