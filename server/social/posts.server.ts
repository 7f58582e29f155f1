/**
 * From a Graph post to what a page shows. Everything Facebook sends is checked here, once: text is plain
 * (React escapes it), links are http(s) only, the click-tracking shim around shared links is removed (a
 * reader who follows a link goes straight to it), and the picture becomes an address on our own origin.
 */
import type { GraphAttachment, GraphPost } from "./graph.server.ts";

export type SocialPost = {
  id: string;
  /** Plain text, paragraphs separated by newlines; may be empty (a photo alone). */
  message: string;
  /** ISO 8601. */
  createdTime: string | null;
  /** The post on Facebook (https, a Facebook host). */
  permalinkUrl: string | null;
  /** Same-origin image address (server/social/images.server.ts), or null. */
  imageUrl: string | null;
  /** A link the post shares. */
  link: { url: string; title: string | null; host: string } | null;
  authorName: string | null;
};

const MAX_MESSAGE = 8000;
const FACEBOOK_HOSTS = ["facebook.com", "fb.com", "fb.watch"];

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v : null);

function httpUrl(raw: unknown): URL | null {
  const s = str(raw);
  if (!s) return null;
  try {
    const url = new URL(s);
    return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

const isFacebookHost = (host: string) => FACEBOOK_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));

/** The destination of a shared link, without Facebook's l.facebook.com redirect around it. */
function unshim(raw: unknown): URL | null {
  const url = httpUrl(raw);
  if (!url) return null;
  if (/^l[m]?\.facebook\.com$/.test(url.hostname) && url.pathname === "/l.php") return httpUrl(url.searchParams.get("u"));
  return url;
}

function attachmentsOf(post: GraphPost): GraphAttachment[] {
  const data = (post.attachments as { data?: unknown } | undefined)?.data;
  return Array.isArray(data) ? (data as GraphAttachment[]) : [];
}

function pictureOf(post: GraphPost): unknown {
  if (str(post.full_picture)) return post.full_picture;
  for (const a of attachmentsOf(post)) {
    const candidates = [a.media?.image?.src, a.media_url, ...(a.subattachments?.data ?? []).map((s) => s.media?.image?.src)];
    const found = candidates.find((c) => str(c));
    if (found) return found;
  }
  return null;
}

function linkOf(post: GraphPost): SocialPost["link"] {
  for (const a of attachmentsOf(post)) {
    const type = str(a.type) ?? str(a.media_type) ?? "";
    if (!/share|link/.test(type)) continue;
    const url = unshim(a.unshimmed_url) ?? unshim(a.url);
    if (url && !isFacebookHost(url.hostname))
      return { url: url.toString(), title: str(a.title)?.slice(0, 300) ?? null, host: url.hostname.replace(/^www\./, "") };
  }
  return null;
}

function cleanText(raw: unknown): string {
  const s = typeof raw === "string" ? raw : "";
  // Control characters other than tab and newline have no business in a post.
  const kept = Array.from(s.replace(/\r\n?/g, "\n").slice(0, MAX_MESSAGE * 2)).filter((c) => {
    const n = c.codePointAt(0) ?? 0;
    return n === 9 || n === 10 || (n > 31 && n !== 127);
  });
  return kept.join("").trim().slice(0, MAX_MESSAGE);
}

/** A post ready for a page; null for an entry without an id. `image` maps a picture URL to our address. */
export function toSocialPost(post: GraphPost, image: (url: unknown) => string | null): SocialPost | null {
  const id = str(post.id);
  if (!id || !/^[\w.-]{1,100}$/.test(id)) return null;
  const created = str(post.created_time);
  const createdDate = created ? new Date(created.replace(/([+-]\d\d)(\d\d)$/, "$1:$2")) : null;
  const permalink = httpUrl(post.permalink_url);
  const from = post.from as { name?: unknown } | undefined;
  return {
    id,
    message: cleanText(post.message),
    createdTime: createdDate && !Number.isNaN(createdDate.getTime()) ? createdDate.toISOString() : null,
    permalinkUrl: permalink && permalink.protocol === "https:" && isFacebookHost(permalink.hostname) ? permalink.toString() : null,
    imageUrl: image(pictureOf(post)),
    link: linkOf(post),
    authorName: str(from?.name)?.slice(0, 200) ?? null,
  };
}
