/**
 * Tags (issue 29, docs/decisions/0122-tags.md): what the browser and the server share. A tag is known by its
 * match key, its name through the search analysis' normalisation (domain/arabic.ts), so «الإنتخابات» and
 * «الانتخابات» are one tag; suggestions match what is typed against the start of a tag's words, with or without
 * the article «ال», the same way on both sides.
 */
import { z } from "zod/mini";
import { normalizeArabic } from "./arabic.ts";
import { NO_STRIP_WORDS } from "./search-words.ts";
import { ID_MAX } from "./ids.ts";
import { PAGE_SLUG_MAX, PAGE_SLUG_PATTERN } from "./content-types/publishing.ts";
import { TAG_NAME_MAX, TAGS_MAX } from "./content-types/define.ts";

export { TAG_NAME_MAX, TAGS_MAX };

/** Items on a tag's public page, and tags on a page of the tags screen. */
export const TAG_PAGE_SIZE = 12;
export const TAGS_SCREEN_PAGE_SIZE = 50;
/** Most suggestions an input asks for, and the default. */
export const TAG_SUGGESTIONS_MAX = 20;
export const TAG_SUGGESTIONS_DEFAULT = 8;
/** Most tags one merge folds into another. */
export const TAG_MERGE_MAX = 100;

/** Where a tag's public page and its feed live. */
export const tagPath = (slug: string) => `/tags/${encodeURIComponent(slug)}`;
export const tagFeedPath = (slug: string) => `${tagPath(slug)}/feed.xml`;

/** What ends a tag being typed: Enter (handled apart), a Latin comma, an Arabic comma «،», a new line. */
export const TAG_SEPARATORS = /[,\u060C\n]/;

/** The key two spellings of one tag share: normalised letters, lower case, single spaces. */
export const tagMatchKey = (name: string) => normalizeArabic(name).toLowerCase().replace(/\s+/g, " ").trim();

/** A tag name as stored: spaces tidied, no separator (they split names). */
export const tidyTagName = (name: string) => name.replace(TAG_SEPARATORS, " ").replace(/\s+/g, " ").trim();

/** Words whose «ال» or «لل» is their own letters, as search reads them (الله, المانيا): never taken off. */
const OWN_ARTICLE = new Set(NO_STRIP_WORDS);

/** A word without its article «ال» (or «لل»), when at least two letters remain. */
const bare = (word: string) => (OWN_ARTICLE.has(word) ? word : word.replace(/^(?:ال|لل)(?=\S\S)/u, ""));
const bareAll = (key: string) => key.split(" ").map(bare).join(" ");

/**
 * The key equivalent tags share: the match key with each word's article off, so «مخطوطات» and «المخطوطات»,
 * «تراث» and «التراث» are one tag to the input (Enter takes the existing one) and to the server (a save reuses it).
 */
export const tagSameKey = (name: string) => bareAll(tagMatchKey(name));

/** Whether two names are one tag. */
export const sameTag = (a: string, b: string) => tagSameKey(a) === tagSameKey(b);

/**
 * How well a typed query matches a tag name, or null when it does not: 0 the same tag (tagSameKey), 1 the
 * name starts with the query, 2 a later word of the name does. Both are normalised (hamza, alef forms, taa
 * marbuta, diacritics, case) and compared with and without the article, so «انتخ», «الإنتخ» and «الانتخابات»
 * all find «الانتخابات الرئاسية», and «رئاس» finds it by its second word.
 */
export function tagMatchRank(query: string, name: string): 0 | 1 | 2 | null {
  const q = tagMatchKey(query);
  if (!q) return null;
  const key = tagMatchKey(name);
  const qBare = bareAll(q);
  if (key === q || bareAll(key) === qBare) return 0;
  const words = key.split(" ");
  for (let i = 0; i < words.length; i++) {
    const rest = words.slice(i).join(" ");
    if (rest.startsWith(q) || bareAll(rest).startsWith(qBare)) return i === 0 ? 1 : 2;
  }
  return null;
}

/** The word the database looks for first (its letters must appear in the match key): the query's longest, article off. */
export function tagQueryCore(query: string): string {
  const words = bareAll(tagMatchKey(query)).split(" ");
  return words.reduce((a, b) => (b.length > a.length ? b : a), "");
}

/** A tag as the input and the API's suggestions carry it. */
export type TagSuggestion = { id: number; slug: string; name: string; count: number };

/** The best `limit` of `candidates` for a query: closest match first, then the most used, then the shortest name. */
export function rankTagSuggestions<T extends { name: string; count: number }>(query: string, candidates: readonly T[], limit: number): T[] {
  return candidates
    .map((tag) => ({ tag, rank: tagMatchRank(query, tag.name) }))
    .filter((c): c is { tag: T; rank: 0 | 1 | 2 } => c.rank !== null)
    .sort((a, b) => a.rank - b.rank || b.tag.count - a.tag.count || a.tag.name.length - b.tag.name.length || a.tag.name.localeCompare(b.tag.name))
    .slice(0, limit)
    .map((c) => c.tag);
}

/** A row of the tags screen and of `GET /api/admin/tags`. */
export type TagSummary = { id: number; slug: string; name: string; count: number; url: string };

// ---- What the tags screen and the API accept ----

const name = z.pipe(
  z.transform((value: unknown) => (typeof value === "string" ? tidyTagName(value) : value)),
  z.string("tags.v.name").check(
    z.minLength(1, "tags.v.name"),
    z.maxLength(TAG_NAME_MAX, "tags.v.nameMax"),
    z.refine((v) => tagMatchKey(v) !== "", "tags.v.name"),
  ),
);
const slug = z.pipe(
  z.transform((value: unknown) => (typeof value === "string" ? value.normalize("NFC").trim().toLowerCase() : value)),
  z.string("tags.v.slug").check(
    z.maxLength(PAGE_SLUG_MAX, "tags.v.slug"),
    z.regex(PAGE_SLUG_PATTERN, "tags.v.slug"),
    z.refine((v) => !/^\d+$/.test(v), "tags.v.slug"),
  ),
);
const tagId = z.int("tags.v.id").check(z.minimum(1, "tags.v.id"), z.maximum(ID_MAX, "tags.v.id"));

/** A rename: a new name, a new slug, or both. */
export const TagPatch = z
  .strictObject({ name: z.optional(name), slug: z.optional(slug) }, "tags.v.unknownField")
  .check(z.refine((v) => v.name !== undefined || v.slug !== undefined, { message: "tags.v.nothing", path: ["name"] }));
export type TagPatchInput = z.output<typeof TagPatch>;

/** A merge: the tag that stays, and those folded into it. */
export const TagMerge = z.strictObject(
  {
    into: tagId,
    from: z.array(tagId, "tags.v.from").check(z.minLength(1, "tags.v.from"), z.maxLength(TAG_MERGE_MAX, "tags.v.fromMax")),
  },
  "tags.v.unknownField",
);
export type TagMergeInput = z.output<typeof TagMerge>;

/** A refused body's messages by field (translation keys), the first issue of each. */
export function tagFieldErrors(error: z.core.$ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) fields[key.slice(0, 40)] ??= "tags.v.unknownField";
      continue;
    }
    const field = String(issue.path[0] ?? "body");
    fields[field] ??= issue.message.startsWith("tags.v.") ? issue.message : "tags.v.invalid";
  }
  return fields;
}
