/**
 * Author profiles (issue 29, docs/decisions/0121-author-profiles.md): what both sides know of a byline. The
 * reading pages name an item's profiles in the reader's language, each a link to its page; the back-office
 * checks a profile's fields with the rules here (the server enforces the same ones: server/content/authors.server.ts).
 * Free of zod and of the server: the reading pages' bundle carries a few lines.
 */
import { PAGE_SLUG_MAX, PAGE_SLUG_PATTERN, slugify } from "./content-types/publishing.ts";
import type { Language } from "./language.ts";

/** An author as an item names it: enough for a byline and its link. */
export type BylineAuthor = { id: number; slug: string; name: string; name_fr: string | null; name_en: string | null; photo_url?: string | null };

/** A link of a profile: a site, a social account. */
export type AuthorLink = { label: string; url: string };

/** A profile as the back-office and the JSON API show it. */
export type AuthorProfile = {
  id: number;
  slug: string;
  name: string;
  name_fr: string | null;
  name_en: string | null;
  photo_url: string | null;
  bio: string | null;
  bio_fr: string | null;
  bio_en: string | null;
  links: AuthorLink[];
  user_id: string | null;
  /** The linked account's e-mail, for the back-office (null: no account). */
  user_email: string | null;
  /** How many items name the profile (any status). */
  item_count: number;
  url: string;
  created_at: string;
  updated_at: string;
};

/** The fields a profile is written from (the JSON API's names; the form posts the same). */
export type AuthorInput = {
  name: string;
  name_fr: string | null;
  name_en: string | null;
  slug: string;
  photo_url: string | null;
  bio: string | null;
  bio_fr: string | null;
  bio_en: string | null;
  links: AuthorLink[];
  user_id: string | null;
};

export const AUTHOR_FIELDS = ["name", "name_fr", "name_en", "slug", "photo_url", "bio", "bio_fr", "bio_en", "links", "user_id"] as const;
export const AUTHOR_NAME_MAX = 120;
export const AUTHOR_BIO_MAX = 2000;
export const AUTHOR_LINKS_MAX = 5;
export const AUTHOR_LINK_LABEL_MAX = 60;
export const AUTHOR_URL_MAX = 500;
/** The back-office list and the API show this many profiles a page unless told. */
export const AUTHORS_PER_PAGE = 50;
/** The public author page lists this many items a page. */
export const AUTHOR_PAGE_SIZE = 12;

/** Where a profile's public page is. */
export const authorPath = (slug: string) => `/authors/${encodeURIComponent(slug)}`;

/** The profile's name in the reader's language: the French or English one when it has it, the Arabic one otherwise. */
export function authorName(lang: Language, author: Pick<BylineAuthor, "name" | "name_fr" | "name_en">): string {
  return (lang === "fr" && author.name_fr) || (lang === "en" && author.name_en) || author.name;
}

/** The names and links of a byline, in its order. */
export function bylineLinks(lang: Language, authors: readonly BylineAuthor[] | null | undefined): { name: string; href: string }[] {
  return (authors ?? []).map((a) => ({ name: authorName(lang, a), href: authorPath(a.slug) }));
}

/** The profile's biography in the reader's language, falling back to the Arabic one. */
export function authorBio(lang: Language, a: Pick<AuthorProfile, "bio" | "bio_fr" | "bio_en">): string | null {
  return (lang === "fr" && a.bio_fr) || (lang === "en" && a.bio_en) || a.bio;
}

/** The slug a name makes ("author" when the name has no letter a URL keeps). */
export const authorSlugOf = (name: string) => slugify(name) || "author";

const str = (value: unknown) => (typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "");
const HTTP_URL = /^https?:\/\/[^\s/?#]+\.[^\s]*$/i;
/** A photo: a file of this site (the media library's) or an http(s) address. */
const PHOTO_URL = /^(\/[^\s]*|https?:\/\/[^\s]+)$/i;

export type AuthorCheck = { ok: true; value: Partial<AuthorInput> } | { ok: false; fields: Record<string, string> };

/**
 * A profile's fields checked: every key must be one of AUTHOR_FIELDS; `name` is required unless `partial` (a
 * PATCH changes only what it sends). A blank slug is made from the name. Messages are translation keys
 * (`authors.v.*`).
 */
export function checkAuthorInput(raw: Record<string, unknown>, { partial = false } = {}): AuthorCheck {
  const fields: Record<string, string> = {};
  const value: Partial<AuthorInput> = {};
  for (const key of Object.keys(raw)) if (!(AUTHOR_FIELDS as readonly string[]).includes(key)) fields[key] = "authors.v.unknownField";
  const has = (key: string) => Object.hasOwn(raw, key);
  if (!partial || has("name")) {
    const name = str(raw.name).replace(/\s+/g, " ");
    if (name.length < 2) fields.name = "authors.v.name";
    else if (name.length > AUTHOR_NAME_MAX) fields.name = "authors.v.tooLong";
    else value.name = name;
  }
  for (const key of ["name_fr", "name_en"] as const) {
    if (!has(key)) continue;
    const text = str(raw[key]).replace(/\s+/g, " ");
    if (text.length > AUTHOR_NAME_MAX) fields[key] = "authors.v.tooLong";
    else value[key] = text || null;
  }
  for (const key of ["bio", "bio_fr", "bio_en"] as const) {
    if (!has(key)) continue;
    const text = str(raw[key]);
    if (text.length > AUTHOR_BIO_MAX) fields[key] = "authors.v.bioTooLong";
    else value[key] = text || null;
  }
  if (has("slug") || !partial) {
    const typed = str(raw.slug).normalize("NFKC").toLowerCase();
    if (!typed) {
      if (value.name) value.slug = authorSlugOf(value.name);
    } else if (typed.length > PAGE_SLUG_MAX || !PAGE_SLUG_PATTERN.test(typed)) fields.slug = "authors.v.slug";
    else value.slug = typed;
  }
  if (has("photo_url")) {
    const url = str(raw.photo_url);
    if (url && (url.length > AUTHOR_URL_MAX || !PHOTO_URL.test(url))) fields.photo_url = "authors.v.photo";
    else value.photo_url = url || null;
  }
  if (has("links")) {
    const links = raw.links;
    if (links !== null && !Array.isArray(links)) fields.links = "authors.v.links";
    else if ((links ?? []).length > AUTHOR_LINKS_MAX) fields.links = "authors.v.linksMax";
    else {
      const kept: AuthorLink[] = [];
      (links ?? []).forEach((link: unknown, i: number) => {
        const l = (link && typeof link === "object" ? link : {}) as Record<string, unknown>;
        const label = str(l.label);
        const url = str(l.url);
        if (!label && !url) return;
        if (!label || label.length > AUTHOR_LINK_LABEL_MAX) fields[`links.${i}.label`] = "authors.v.linkLabel";
        else if (!url || url.length > AUTHOR_URL_MAX || !HTTP_URL.test(url)) fields[`links.${i}.url`] = "authors.v.linkUrl";
        else kept.push({ label, url });
      });
      value.links = kept;
    }
  }
  if (has("user_id")) {
    const id = raw.user_id;
    if (id !== null && id !== "" && (typeof id !== "string" || id.length > 100)) fields.user_id = "authors.v.account";
    else value.user_id = typeof id === "string" && id ? id : null;
  }
  return Object.keys(fields).length ? { ok: false, fields } : { ok: true, value };
}
