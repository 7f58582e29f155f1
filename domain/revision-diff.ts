/**
 * The difference between two saved versions of an item (the revisions page, app/routes/admin/content-revisions.tsx).
 * Pure and browser-safe: no DOM, no server module.
 *
 * Long text (rich text and plain paragraphs) is compared in two steps: its blocks (paragraphs, headings, list
 * items, images) are matched first, then each changed paragraph is compared word by word, so a one-word fix
 * in a long article marks one word. Words are what whitespace separates, with punctuation (Arabic ، ؛ ؟ and
 * Latin) split off as tokens of its own and kept: a changed comma is marked, the word beside it is not. Letters
 * and their combining marks (Arabic harakat, shadda, tatweel) stay one word.
 *
 * Both steps are a longest common subsequence after the common start and end are set aside. Its table is
 * bounded (MAX_CELLS): a comparison bigger than that is cut: the blocks or words past the bound are shown
 * as removed and added, and the result says `truncated` so the page can tell the reader.
 */

import { parsePublishDate } from "./content-types/publishing.ts";

export type WordOp = "same" | "del" | "ins";
export type WordPart = { op: WordOp; text: string };

/** A block of long text: a paragraph (heading, list item, quote…) of plain words, or an image with its text alternative. */
export type TextBlock = { kind: "text"; text: string } | { kind: "image"; src: string; alt: string };

export type BlockChange = { op: "same"; count: number } | { op: "del" | "ins"; block: TextBlock } | { op: "changed"; parts: WordPart[] };

export type TextDiff = { changes: BlockChange[]; truncated: boolean };

/** The largest table one comparison builds (rows × columns), about 4 MB of 16-bit counters. */
export const MAX_CELLS = 2_000_000;
/** Blocks of one long text compared at most; past them the text is compared as one whole. */
export const MAX_BLOCKS = 2_000;

// ---- Words ----

/** Letters, digits and marks make words; the tatweel and the zero-width joiners are inside words too. */
const WORD = /[\p{L}\p{M}\p{N}\u0640\u200c\u200d]+/u;
const TOKEN = /[\p{L}\p{M}\p{N}\u0640\u200c\u200d]+\s*|[^\s\p{L}\p{M}\p{N}\u0640\u200c\u200d]\s*|\s+/gu;

/** Words and punctuation marks, each with the whitespace that follows it (so joining the tokens gives the text back). */
export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

const keyOf = (token: string) => token.trim();

/** Which items of `a` and `b` an LCS pairs, as [i, j] pairs in order; null when the table would exceed MAX_CELLS. */
function lcsPairs<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): [number, number][] | null {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return [];
  if (n * m > MAX_CELLS) return null;
  // lengths[i][j] = LCS of a[i..] and b[j..], in one flat array; 16 bits hold up to 65535, more than the bound allows on one side.
  const width = m + 1;
  const lengths = n <= 0xffff && m <= 0xffff ? new Uint16Array((n + 1) * width) : new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] = same(a[i], b[j]) ? lengths[(i + 1) * width + j + 1] + 1 : Math.max(lengths[(i + 1) * width + j], lengths[i * width + j + 1]);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (same(a[i], b[j])) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) i++;
    else j++;
  }
  return pairs;
}

/** The edit script of two sequences: runs of kept, removed and added items, with the common start and end set aside first. */
function editScript<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): { ops: { op: WordOp; a?: T; b?: T }[]; truncated: boolean } {
  let start = 0;
  while (start < a.length && start < b.length && same(a[start], b[start])) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && same(a[endA - 1], b[endB - 1])) {
    endA--;
    endB--;
  }
  const ops: { op: WordOp; a?: T; b?: T }[] = [];
  for (let k = 0; k < start; k++) ops.push({ op: "same", a: a[k], b: b[k] });
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const pairs = lcsPairs(midA, midB, same);
  const truncated = pairs === null;
  let i = 0;
  let j = 0;
  for (const [pi, pj] of pairs ?? []) {
    for (; i < pi; i++) ops.push({ op: "del", a: midA[i] });
    for (; j < pj; j++) ops.push({ op: "ins", b: midB[j] });
    ops.push({ op: "same", a: midA[i++], b: midB[j++] });
  }
  for (; i < midA.length; i++) ops.push({ op: "del", a: midA[i] });
  for (; j < midB.length; j++) ops.push({ op: "ins", b: midB[j] });
  for (let k = 0; k < a.length - endA; k++) ops.push({ op: "same", a: a[endA + k], b: b[endB + k] });
  return { ops, truncated };
}

/**
 * Word by word: the parts of the new text, kept, removed and added, adjacent parts of one kind joined. Removals
 * come before the additions that replace them. A kept part that is only whitespace or punctuation between two
 * changes is folded into them, so "a b c" → "x y z" reads as one replacement, not six.
 */
export function diffWords(before: string, after: string): { parts: WordPart[]; truncated: boolean } {
  const { ops, truncated } = editScript(tokenize(before), tokenize(after), (x, y) => keyOf(x) === keyOf(y));
  const raw: WordPart[] = ops.map((o) => ({ op: o.op, text: o.op === "del" ? o.a! : o.b! }));
  return { parts: tidy(raw), truncated };
}

function tidy(parts: WordPart[]): WordPart[] {
  // Fold a kept run with no word in it, between changes, into the changes on both sides.
  const folded: WordPart[] = [];
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k];
    if (p.op === "same" && !WORD.test(p.text) && k > 0 && parts[k - 1].op !== "same") {
      let next = k + 1;
      while (next < parts.length && parts[next].op === "same" && !WORD.test(parts[next].text)) next++;
      if (next < parts.length && parts[next].op !== "same") {
        const text = parts
          .slice(k, next)
          .map((x) => x.text)
          .join("");
        folded.push({ op: "del", text }, { op: "ins", text });
        k = next - 1;
        continue;
      }
    }
    folded.push(p);
  }
  // Within each run of changes, removals first, then additions; then join neighbours of one kind.
  const ordered: WordPart[] = [];
  for (let k = 0; k < folded.length;) {
    if (folded[k].op === "same") {
      ordered.push(folded[k++]);
      continue;
    }
    const dels: string[] = [];
    const ins: string[] = [];
    for (; k < folded.length && folded[k].op !== "same"; k++) (folded[k].op === "del" ? dels : ins).push(folded[k].text);
    if (dels.length) ordered.push({ op: "del", text: dels.join("") });
    if (ins.length) ordered.push({ op: "ins", text: ins.join("") });
  }
  const joined: WordPart[] = [];
  for (const p of ordered) {
    const last = joined.at(-1);
    if (last && last.op === p.op) last.text += p.text;
    else if (p.text) joined.push({ ...p });
  }
  return joined;
}

// ---- Blocks ----

const BLOCK_TAGS = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "blockquote", "figure", "figcaption", "pre", "ul", "ol", "hr", "div", "br", "tr"]);
const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** Text with its character references read (the sanitiser writes &amp; &lt; &gt; &quot; &nbsp; and numeric ones). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

const attribute = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  return m ? decodeEntities(m[1] ?? m[2] ?? m[3] ?? "") : "";
};

/**
 * The blocks of sanitised rich text (server/content/rich-text.server.ts allows a short list of tags): each
 * paragraph, heading, list item, quote or caption as its words, whitespace collapsed, and each image as its
 * source and text alternative. Empty blocks are left out.
 */
export function richTextBlocks(html: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  let text = "";
  const flush = () => {
    const clean = decodeEntities(text).replace(/\s+/g, " ").trim();
    if (clean) blocks.push({ kind: "text", text: clean });
    text = "";
  };
  const tags = /<!--[\s\S]*?-->|<\/?([a-z][a-z0-9]*)\b[^>]*>/gi;
  let last = 0;
  for (let m = tags.exec(html); m; m = tags.exec(html)) {
    text += html.slice(last, m.index);
    last = tags.lastIndex;
    const name = (m[1] ?? "").toLowerCase();
    if (name === "img") {
      flush();
      blocks.push({ kind: "image", src: attribute(m[0], "src"), alt: attribute(m[0], "alt") });
    } else if (BLOCK_TAGS.has(name)) flush();
  }
  text += html.slice(last);
  flush();
  return blocks;
}

/** The blocks of plain text (a textarea): one per line, blank lines left out. */
export function plainTextBlocks(text: string): TextBlock[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .map((line) => ({ kind: "text", text: line }));
}

const sameBlock = (x: TextBlock, y: TextBlock) =>
  x.kind === "text" ? y.kind === "text" && x.text === y.text : y.kind === "image" && x.src === y.src && x.alt === y.alt;

/**
 * Two long texts as their blocks: kept blocks counted (the page shows "3 paragraphs unchanged"), removed and
 * added ones whole, and a removed paragraph followed by an added one compared word by word.
 */
export function diffBlocks(before: readonly TextBlock[], after: readonly TextBlock[]): TextDiff {
  let truncated = false;
  let a = before;
  let b = after;
  if (a.length > MAX_BLOCKS || b.length > MAX_BLOCKS) {
    // Too many blocks to match: past the bound, the rest is one block on each side.
    truncated = true;
    const squash = (blocks: readonly TextBlock[]): TextBlock[] => [
      ...blocks.slice(0, MAX_BLOCKS - 1),
      {
        kind: "text",
        text: blocks
          .slice(MAX_BLOCKS - 1)
          .map((x) => (x.kind === "text" ? x.text : x.alt))
          .join(" "),
      },
    ];
    if (a.length > MAX_BLOCKS) a = squash(a);
    if (b.length > MAX_BLOCKS) b = squash(b);
  }
  const script = editScript(a, b, sameBlock);
  truncated ||= script.truncated;
  const changes: BlockChange[] = [];
  for (let k = 0; k < script.ops.length;) {
    const op = script.ops[k];
    if (op.op === "same") {
      const last = changes.at(-1);
      if (last?.op === "same") last.count++;
      else changes.push({ op: "same", count: 1 });
      k++;
      continue;
    }
    // A run of changes: removed blocks, then added ones; text blocks paired in order are compared by words.
    const dels: TextBlock[] = [];
    const ins: TextBlock[] = [];
    for (; k < script.ops.length && script.ops[k].op !== "same"; k++) {
      const o = script.ops[k];
      if (o.op === "del") dels.push(o.a!);
      else ins.push(o.b!);
    }
    const delTexts = dels.filter((x) => x.kind === "text");
    const insTexts = ins.filter((x) => x.kind === "text");
    const paired = Math.min(delTexts.length, insTexts.length);
    for (const block of dels) if (block.kind === "image") changes.push({ op: "del", block });
    for (const block of ins) if (block.kind === "image") changes.push({ op: "ins", block });
    for (let p = 0; p < paired; p++) {
      const words = diffWords((delTexts[p] as { text: string }).text, (insTexts[p] as { text: string }).text);
      truncated ||= words.truncated;
      changes.push({ op: "changed", parts: words.parts });
    }
    for (const block of delTexts.slice(paired)) changes.push({ op: "del", block });
    for (const block of insTexts.slice(paired)) changes.push({ op: "ins", block });
  }
  return { changes, truncated };
}

/** Whether a text comparison found anything to show. */
export const hasChanges = (diff: TextDiff) => diff.changes.some((c) => c.op !== "same");

// ---- Fields ----

/** The field kinds compared as long text (block by block, then word by word); every other kind is shown old → new. */
export const LONG_TEXT_KINDS = ["richtext", "textarea"] as const;

/** A stored scalar as text; a relation (authors, tags: `[{ id, name }]`) as its names in order; any other object as nothing. */
const textOf = (value: unknown): string => {
  if (Array.isArray(value))
    return value.map((entry: unknown) => textOf(entry && typeof entry === "object" ? (entry as { name?: unknown }).name : entry)).join("، ");
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : value.toISOString();
  return typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : "";
};

/**
 * A publish time as the page shows it: to the minute, a time without a zone read as the site's (UTC, as the
 * form's datetime-local is, parsePublishDate). A save at 10:07:31 and the form's 10:07 after it are one time,
 * since both show «10:07» (issue 46: they were listed as a change). Null when it is no time.
 */
function shownTime(text: string): string | null {
  if (!text) return null;
  const time = parsePublishDate(text).getTime();
  return Number.isNaN(time) ? null : new Date(time - (time % 60_000)).toISOString();
}

/**
 * A stored value as it compares: blank and absent are the same, numbers and their digits are the same, text is
 * trimmed, times are compared as shown (shownTime).
 */
export function comparable(kind: string, value: unknown): string {
  if (kind === "boolean") return value === true || value === "true" || value === "on" ? "true" : "false";
  const text = textOf(value);
  if (kind === "datetime") return shownTime(text) ?? text;
  if (kind === "richtext") {
    return richTextBlocks(text)
      .map((b) => (b.kind === "text" ? `t:${b.text}` : `i:${b.src}|${b.alt}`))
      .join("\n");
  }
  return text.trim();
}

/** The names of the fields whose values differ, in the order given. */
export function changedFields(fields: readonly { name: string; kind: string }[], before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return fields.filter((f) => comparable(f.kind, before[f.name]) !== comparable(f.kind, after[f.name])).map((f) => f.name);
}

/** Two long texts of a field of that kind, compared. */
export function diffLongText(kind: string, before: unknown, after: unknown): TextDiff {
  const blocks = kind === "richtext" ? richTextBlocks : plainTextBlocks;
  return diffBlocks(blocks(typeof before === "string" ? before : ""), blocks(typeof after === "string" ? after : ""));
}

// ---- Values as the page shows them ----

/**
 * A stored value as the revisions page shows it: what it is, not how it is stored ("الفئة: 1" was the
 * category's id). The page turns each into words of its language: a category's name, yes/no, a formatted
 * date, a thumbnail with its address isolated left to right.
 */
export type DisplayValue =
  | { kind: "empty" }
  | { kind: "text"; text: string }
  /** A relation's names in order (authors, tags), joined as the page's language joins them. */
  | { kind: "list"; items: string[] }
  | { kind: "slug"; text: string }
  | { kind: "option"; key: string }
  /** A row the field names by id: a category (`of` "category"), or an item of the type a reference field names (`of` its key). */
  | { kind: "category"; of: string; id: string; name: string | null; nameFr: string | null }
  | { kind: "boolean"; value: boolean }
  | { kind: "date"; value: string; withTime: boolean }
  | { kind: "image"; src: string }
  | { kind: "link"; href: string }
  | { kind: "video"; id: string }
  | { kind: "status"; status: string };

export type CategoryName = { id: number; name: string; nameFr: string | null };

/** The hosted video library's ids (36 characters, 8-4-4-4-12 hexadecimal digits): shown as a library video, not as a link. */
const VIDEO_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How a field's stored value shows (the field kinds of domain/content-types/define.ts, and the publishing fields);
 * `names` are the rows a category or reference field may name, by id.
 */
export function displayValue(
  field: { kind: string; optionLabels?: string; references?: string },
  value: unknown,
  names: ReadonlyMap<number, CategoryName> = new Map(),
): DisplayValue {
  if (field.kind === "boolean") return { kind: "boolean", value: comparable("boolean", value) === "true" };
  if (Array.isArray(value)) {
    const items = value.map((entry: unknown) => textOf(entry && typeof entry === "object" ? (entry as { name?: unknown }).name : entry).trim()).filter(Boolean);
    return items.length ? { kind: "list", items } : { kind: "empty" };
  }
  const text = textOf(value).trim();
  if (!text) return { kind: "empty" };
  switch (field.kind) {
    case "category":
    case "reference": {
      const found = names.get(Number(text));
      return { kind: "category", of: field.references ?? "category", id: text, name: found?.name ?? null, nameFr: found?.nameFr ?? null };
    }
    case "select":
      return field.optionLabels ? { kind: "option", key: `${field.optionLabels}.${text}` } : { kind: "text", text };
    case "date":
      return { kind: "date", value: text, withTime: false };
    case "datetime":
      return { kind: "date", value: shownTime(text) ?? text, withTime: true };
    case "status":
      return { kind: "status", status: text };
    case "slug":
      return { kind: "slug", text };
    case "image":
      return { kind: "image", src: text };
    case "video":
    case "file":
    case "audio":
    case "captions":
      return VIDEO_ID.test(text) ? { kind: "video", id: text.toLowerCase() } : { kind: "link", href: text };
    default:
      return { kind: "text", text };
  }
}
