/**
 * The plain-text cleaner behind every free-text form field (public-site.md §5, "Text sanitiser"): it trims,
 * turns line breaks into spaces in single-line fields, and removes control characters — the invisible
 * characters nobody types on purpose: C0 and C1 controls (tab and newline survive in multi-line text) and
 * the bidi overrides and isolates that can make a stored text display differently from what it says.
 *
 * Everything else is stored as typed: «5 < 6 & "quotes"», Arabic punctuation, a word like "onion=3" or an
 * address like "javascript:" in a question about programming. Plain text is never HTML here: React escapes
 * it wherever it is shown and the e-mails escape it too, so removing "tags" would only mangle what readers
 * wrote (docs/decisions/0051-plain-text-is-stored-as-typed.md). Rich text written in the newsroom is
 * another matter: server/content/rich-text.server.ts cleans that HTML with sanitize-html.
 *
 * It runs on both sides: in the browser for instant feedback, and on the server, which is authoritative.
 */

export type SanitizeOptions = {
  /** Keep newlines and tabs (a message body); otherwise they become spaces (a name, a subject). */
  multiline?: boolean;
};

// \p{Cc} is C0, DEL and C1; tab and newline are handled by the caller's choice of single or multiple lines.
// Left-to-right and right-to-left marks (U+200E, U+200F, U+061C) stay: Arabic keyboards type them.
const CONTROL = /(?![\t\n])[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu;

// C0 controls but tab, line feed and carriage return; DEL; C1. No text of ours holds them, and PostgreSQL
// refuses NUL outright.
const STRAY_CONTROLS = /(?![\t\n\r])\p{Cc}/gu;

/**
 * What the server's body reader does to every string it receives (server/http/request-body.server.ts), whatever the route:
 * control characters removed, line breaks and tabs kept. sanitizeText, which the forms' schemas run, goes
 * further for plain text.
 */
export function stripControls(text: string): string {
  return text.replace(STRAY_CONTROLS, "");
}

export function sanitizeText(input: unknown, { multiline = false }: SanitizeOptions = {}): string {
  if (typeof input !== "string") return "";
  let text = input.replace(/\r\n?/g, "\n").replace(CONTROL, "");
  if (!multiline) text = text.replace(/ *[\n\t][\n\t ]*/g, " ");
  return text.trim();
}
