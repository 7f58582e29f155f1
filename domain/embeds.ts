/**
 * Embeds that ask first (issue 46, docs/decisions/0150-embeds-ask-first.md): a post or video of another service
 * in a body is stored as its address alone in a paragraph (the way a newsroom pastes it, and the way WordPress
 * turns a bare address into an embed). On the page it becomes a placeholder that names the service, with a button
 * that loads the service's player and a plain link to the post; nothing of the service's is fetched before the
 * click. A service the operator allows by default (EMBEDS_ALLOWED) is framed at once.
 *
 * Every service here is shown through its own iframe player (never its script), so the page's script policy
 * stays ours; the frames' origins are the page's frame-src (server/http/security.server.ts).
 *
 * Pure and shared: the server marks the embeds of a body, the page component fills in their words.
 */

export const EMBED_SERVICES = ["youtube", "facebook", "x", "instagram", "tiktok", "vimeo", "dailymotion", "telegram"] as const;
export type EmbedService = (typeof EMBED_SERVICES)[number];

/** The service's own name, the same in every language. */
export const EMBED_SERVICE_NAMES: Record<EmbedService, string> = {
  youtube: "YouTube",
  facebook: "Facebook",
  x: "X",
  instagram: "Instagram",
  tiktok: "TikTok",
  vimeo: "Vimeo",
  dailymotion: "Dailymotion",
  telegram: "Telegram",
};

/** The origins the players are framed from: the only ones an embed may load, and only once asked to. */
export const EMBED_FRAME_ORIGINS = [
  "https://www.youtube-nocookie.com",
  "https://www.facebook.com",
  "https://platform.twitter.com",
  "https://www.instagram.com",
  "https://www.tiktok.com",
  "https://player.vimeo.com",
  "https://www.dailymotion.com",
  "https://t.me",
] as const;

export type Embed = {
  service: EmbedService;
  /** The post as the newsroom pasted it (the plain link). */
  url: string;
  /** The service's player for it. */
  frame: string;
  /** Posts are taller than they are wide; videos are 16:9. */
  shape: "video" | "post" | "portrait";
};

const hostIs = (host: string, ...domains: string[]) => domains.some((d) => host === d || host.endsWith(`.${d}`));
const YOUTUBE_ID = /^[\w-]{11}$/;

/** The embed an address of a known service's post or video makes, else null. */
export function embedOf(raw: string): Embed | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username || url.password || url.port) return null;
  const host = url.hostname.toLowerCase();
  const parts = url.pathname.split("/").filter(Boolean);
  const href = url.toString();
  const make = (service: EmbedService, frame: string, shape: Embed["shape"] = "video"): Embed => ({ service, url: href, frame, shape });

  if (hostIs(host, "youtube.com", "youtu.be")) {
    const id = host.endsWith("youtu.be")
      ? parts[0]
      : parts[0] === "watch"
        ? url.searchParams.get("v")
        : ["shorts", "embed", "live"].includes(parts[0] ?? "")
          ? parts[1]
          : null;
    if (!id || !YOUTUBE_ID.test(id)) return null;
    return make("youtube", `https://www.youtube-nocookie.com/embed/${id}`, parts[0] === "shorts" ? "portrait" : "video");
  }
  if (hostIs(host, "facebook.com", "fb.watch")) {
    if (!parts.length) return null;
    const video = host.endsWith("fb.watch") || parts.some((p) => ["videos", "watch", "reel"].includes(p));
    const plugin = video ? "video" : "post";
    const post = video || parts.some((p) => ["posts", "photos", "permalink.php", "story.php"].includes(p)) || url.searchParams.has("story_fbid");
    if (!post) return null;
    return make("facebook", `https://www.facebook.com/plugins/${plugin}.php?href=${encodeURIComponent(href)}`, video ? "video" : "post");
  }
  if (hostIs(host, "x.com", "twitter.com")) {
    const at = parts.indexOf("status");
    const id = at > 0 ? parts[at + 1] : undefined;
    if (!id || !/^\d{1,25}$/.test(id)) return null;
    return make("x", `https://platform.twitter.com/embed/Tweet.html?id=${id}`, "post");
  }
  if (hostIs(host, "instagram.com")) {
    const at = parts.findIndex((p) => ["p", "reel", "tv"].includes(p));
    const code = at >= 0 ? parts[at + 1] : undefined;
    if (!code || !/^[\w-]{5,40}$/.test(code)) return null;
    return make("instagram", `https://www.instagram.com/${parts[at]}/${code}/embed`, "portrait");
  }
  if (hostIs(host, "tiktok.com")) {
    const at = parts.indexOf("video");
    const id = at >= 0 ? parts[at + 1] : undefined;
    if (!id || !/^\d{5,25}$/.test(id)) return null;
    return make("tiktok", `https://www.tiktok.com/embed/v2/${id}`, "portrait");
  }
  if (hostIs(host, "vimeo.com")) {
    const id = parts.find((p) => /^\d{3,12}$/.test(p));
    return id ? make("vimeo", `https://player.vimeo.com/video/${id}`) : null;
  }
  if (hostIs(host, "dailymotion.com", "dai.ly")) {
    const id = host.endsWith("dai.ly") ? parts[0] : parts[0] === "video" ? parts[1] : undefined;
    if (!id || !/^[a-z0-9]{5,12}$/i.test(id)) return null;
    return make("dailymotion", `https://www.dailymotion.com/embed/video/${id}`);
  }
  if (hostIs(host, "t.me", "telegram.me")) {
    const [channel, post] = parts;
    if (!channel || !post || !/^\w{3,64}$/.test(channel) || !/^\d{1,12}$/.test(post)) return null;
    return make("telegram", `https://t.me/${channel}/${post}?embed=1`, "post");
  }
  return null;
}

/** The services of a setting's list (`youtube,facebook`), or the first unknown name. */
export function parseEmbedServices(value: string): { services: EmbedService[] } | { unknown: string } {
  const names = [...new Set(value.split(",").map((s) => s.trim().toLowerCase()))].filter(Boolean);
  const unknown = names.find((n) => !(EMBED_SERVICES as readonly string[]).includes(n));
  if (unknown !== undefined) return { unknown };
  return { services: EMBED_SERVICES.filter((s) => names.includes(s)) };
}

const escapeAttr = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeText = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const decodeAttr = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/**
 * A paragraph holding only a link whose words are its address (sanitised rich text: server/content/rich-text.server.ts),
 * or only an address as text. A link with words of its own is a link the editor wrote, and stays one.
 */
const BARE_LINK = /<p(?:\s[^>]*)?>\s*(?:<a\s([^>]*)>([^<]*)<\/a>|(https?:\/\/[^\s<"]+))\s*<\/p>/gi;
const HREF = /\bhref="([^"]*)"/i;
const sameAddress = (a: string, b: string) => a.trim().replace(/\/+$/, "") === b.trim().replace(/\/+$/, "");

/**
 * Marks the embeds of sanitised rich text: each bare link of a known service becomes an empty
 * `<figure data-embed>` naming the service, its player and its post (and `data-embed-allowed` when the operator
 * allows the service by default). `renderEmbeds` gives it its words in the page's language.
 */
export function markEmbeds(html: string, allowed: readonly EmbedService[] = []): string {
  return html.replace(BARE_LINK, (whole, attrs: string | undefined, text: string | undefined, bare: string | undefined) => {
    const href = attrs !== undefined ? decodeAttr(HREF.exec(attrs)?.[1] ?? "") : decodeAttr(bare ?? "");
    if (attrs !== undefined && !sameAddress(decodeAttr(text ?? ""), href)) return whole;
    const embed = embedOf(href);
    if (!embed) return whole;
    const allow = allowed.includes(embed.service) ? " data-embed-allowed" : "";
    return `<figure data-embed="${embed.service}" data-embed-shape="${embed.shape}" data-embed-src="${escapeAttr(embed.frame)}" data-embed-url="${escapeAttr(embed.url)}"${allow}></figure>`;
  });
}

/** The words of an embed in the page's language, for one service (its name given). */
export type EmbedLabels = {
  /** "Content from YouTube" */
  title: string;
  /** Why it waits: loading it lets the service know of the visit. */
  note: string;
  /** The button: "Load the YouTube content". */
  load: string;
  /** The plain link to the post: "View on YouTube". */
  open: string;
  /** The frame's accessible name. */
  frameTitle: string;
  /** The page's language and direction, which the placeholder speaks in whatever the body's own. */
  lang?: string;
  dir?: "rtl" | "ltr";
  /** The address of the placeholders' script (app/enhance/embeds.js), which app/enhance/reading.js imports. */
  script?: string;
};

const MARKED = /<figure data-embed="([a-z]+)" data-embed-shape="([a-z]+)" data-embed-src="([^"]*)" data-embed-url="([^"]*)"( data-embed-allowed)?><\/figure>/g;

const SHAPE_CLASS: Record<Embed["shape"], string> = {
  video: "aspect-video",
  post: "min-h-96",
  portrait: "mx-auto aspect-[9/16] max-w-sm",
};

/** Attributes every player frame gets (app/enhance/embeds.js gives a frame loaded on a click the same). */
const FRAME_ATTRS = 'referrerpolicy="strict-origin-when-cross-origin" allow="encrypted-media; picture-in-picture; fullscreen" allowfullscreen';
const FRAME_CLASS = "absolute inset-0 h-full w-full rounded-lg border-0";

/**
 * The marked embeds as the reader sees them: a placeholder that asks first (a button, shown by app/enhance/embeds.js,
 * that frames the player in the box; a link to the post that works without JavaScript), or the player at once for
 * a service allowed by default. The box keeps the player's shape, so nothing moves when it loads.
 */
export function renderEmbeds(html: string, labelsOf: (service: string) => EmbedLabels): string {
  return html.replace(MARKED, (_whole, service: string, shape: string, src: string, url: string, allowed: string | undefined) => {
    if (!(EMBED_SERVICES as readonly string[]).includes(service) || !(shape in SHAPE_CLASS)) return "";
    const labels = labelsOf(EMBED_SERVICE_NAMES[service as EmbedService]);
    const say = escapeText;
    const frameTitle = escapeAttr(labels.frameTitle);
    const inside = allowed
      ? `<iframe src="${src}" title="${frameTitle}" class="${FRAME_CLASS}" loading="lazy" ${FRAME_ATTRS}></iframe>`
      : `<div class="flex flex-1 flex-col items-center justify-center gap-3 rounded-lg border border-sand-300 bg-sand-100 p-5 text-center" data-testid="embed-placeholder">` +
        `<p class="m-0 font-bold text-ink">${say(labels.title)}</p><p class="m-0 max-w-prose text-sm leading-relaxed text-ink-soft">${say(labels.note)}</p>` +
        `<button type="button" hidden class="rounded-md bg-ink px-4 py-2 text-base font-bold text-white hover:bg-desert-700" data-embed-load data-testid="embed-load">${say(labels.load)}</button></div>`;
    return (
      `<figure class="my-6"${labels.lang ? ` lang="${escapeAttr(labels.lang)}" dir="${labels.dir === "rtl" ? "rtl" : "ltr"}"` : ""} data-embed="${service}" data-embed-src="${src}" data-embed-title="${frameTitle}" data-frame-class="${FRAME_CLASS}" ` +
      `data-state="${allowed ? "loaded" : "asking"}"${!allowed && labels.script ? ` data-embed-script="${escapeAttr(labels.script)}"` : ""} data-testid="embed"><div class="relative flex w-full ${SHAPE_CLASS[shape as Embed["shape"]]}">${inside}</div>` +
      `<figcaption class="mt-2 text-sm"><a href="${url}" target="_blank" rel="noopener noreferrer nofollow" data-testid="embed-link">${say(labels.open)}</a></figcaption></figure>`
    );
  });
}
