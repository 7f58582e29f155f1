/**
 * The text sanitiser of public-site.md §5: trims, strips script blocks, strips all tags, strips
 * `javascript:` prefixes, strips inline event-handler attributes and strips control characters (newline
 * and tab survive in multi-line text). It runs on both sides: in the browser for instant feedback, and on
 * the server, which is authoritative, before anything a visitor typed is stored.
 *
 * Output is plain text. It is still escaped wherever it is shown (React does that); sanitising is a second
 * wall, so that a stored row never carries markup into a page, an e-mail or an export.
 */

export type SanitizeOptions = {
  /** Keep newlines and tabs (a message body); otherwise they become spaces (a name, a subject). */
  multiline?: boolean;
};

// Control characters: C0 (minus \t \n \r, handled separately), DEL, C1, and the invisible bidi overrides
// that can make a stored text display differently from what it says.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
const SCRIPT_BLOCK = /<script\b[^>]*>[\s\S]*?<\/script\s*>/gi;
// An opening <script> with no closing tag swallows the rest of the text, as a browser would.
const UNCLOSED_SCRIPT = /<script\b[\s\S]*$/i;
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
// A tag starts with "<" followed by a letter, "/", "!" or "?": "a < b" and "<3" stay as they are.
const TAG = /<\/?[a-zA-Z!?][^<>]*>/g;
// URL parsers drop tabs and newlines anywhere in a URL, so "java\tscript:" is the same scheme.
const JAVASCRIPT = new RegExp([..."javascript"].join("[\\t\\n\\r]*") + "[\\t\\n\\r]*:", "gi");
const EVENT_HANDLER = /\bon[a-z]+\s*=\s*(?:"[^"]*"?|'[^']*'?|[^\s>]*)/gi;

function pass(text: string): string {
  return text.replace(SCRIPT_BLOCK, "").replace(UNCLOSED_SCRIPT, "").replace(COMMENT, "").replace(TAG, "").replace(JAVASCRIPT, "").replace(EVENT_HANDLER, "");
}

/** Repeats until nothing changes: removing one piece can join two halves into a new one
 * ("<scr<script></script>ipt>", "javajavascript:script:"). Each pass only shortens the text. */
function strip(input: string): string {
  let text = input;
  for (let i = 0; i < 20; i++) {
    const next = pass(text);
    if (next === text) return text;
    text = next;
  }
  // Deliberately nested input that is still changing: give up on keeping its angle brackets.
  return pass(text.replace(/[<>]/g, ""));
}

export function sanitizeText(input: unknown, { multiline = false }: SanitizeOptions = {}): string {
  if (typeof input !== "string") return "";
  let text = strip(input.replace(/\r\n?/g, "\n").replace(CONTROL, ""));
  // Single-line text: newlines and tabs become spaces, after the scheme check has seen them.
  if (!multiline) text = strip(text.replace(/[ ]*[\n\t][\n\t ]*/g, " "));
  return text.trim();
}
