/**
 * The contact form (public-site.md §5, "Contact form"): one schema for the server, which decides, and the
 * browser, which answers at once. Every field is required and sanitised; messages are keys under
 * `contact` in domain/locales.
 */
import { z } from "zod/mini";
import { EmailSchema, TextSchema } from "./shared.ts";

export const CONTACT_LIMITS = { name: 100, email: 254, subject: 200, message: 5000 } as const;

/** Whole request bodies above this are refused with 413 before they are parsed. */
export const CONTACT_MAX_BODY_BYTES = 64 * 1024;

/** The hidden field only robots fill in (see the contact page). */
export const HONEYPOT_FIELD = "website";

export const CONTACT_FIELDS = ["name", "email", "subject", "message"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export const ContactSchema = z.object({
  name: TextSchema({ max: CONTACT_LIMITS.name, required: "contact.requiredText", tooLong: "contact.nameTooLong" }),
  email: EmailSchema({ required: "contact.requiredText", invalid: "contact.invalidEmail", tooLong: "contact.emailTooLong" }),
  subject: TextSchema({ max: CONTACT_LIMITS.subject, required: "contact.requiredText", tooLong: "contact.subjectTooLong" }),
  message: TextSchema({ max: CONTACT_LIMITS.message, multiline: true, required: "contact.requiredText", tooLong: "contact.messageTooLong" }),
});

export type ContactInput = z.input<typeof ContactSchema>;
export type ContactMessage = z.output<typeof ContactSchema>;

/** The schema's input from submitted form data (missing fields become null, which counts as empty). */
export function contactFormValues(form: FormData): Record<ContactField, FormDataEntryValue | null> {
  return { name: form.get("name"), email: form.get("email"), subject: form.get("subject"), message: form.get("message") };
}
