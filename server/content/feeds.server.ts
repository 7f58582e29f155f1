/**
 * The machine-readable site files: sitemap.xml (sitemaps.org 0.9: an index of the files of pages and of the
 * Google News sitemap), robots.txt, rss.xml (RSS 2.0) and the podcast feed (RSS 2.0 with the iTunes tags Apple
 * Podcasts and Spotify read). Pure functions of their inputs; the routes fetch the data. Every URL is absolute,
 * built from PUBLIC_URL, and a page's URL is its address in the language listed or fed (issue 42,
 * domain/addresses.ts): one sitemap `<url>` per language with hreflang alternates, one feed per language.
 */
import { localizedPath } from "#domain/addresses.ts";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "#domain/language.ts";
import { localized } from "#domain/localized.ts";
import type { Config } from "#server/config.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import type { FeedItem } from "./published-items.server.ts";
import type { NewsSitemapItem, SitemapEntry } from "#domain/sitemap-entries.ts";

/** The site's name in a language: the Arabic name, or the Latin one (SITE_NAME_FR) for French and English. */
export const siteNameIn = (config: Pick<Config, "SITE_NAME" | "SITE_NAME_FR">, lang: Language) => (lang === "ar" ? config.SITE_NAME : config.SITE_NAME_FR);

/** A feed's channel title and description in its language (the site's name; the description the interface's words). */
export function feedChannelText(config: Pick<Config, "SITE_NAME" | "SITE_NAME_FR" | "SITE_DESCRIPTION">, lang: Language) {
  return { title: siteNameIn(config, lang), description: lang === "ar" ? config.SITE_DESCRIPTION : translate(lang, "sitemapPage.rss") };
}

/** Characters XML 1.0 cannot carry at all, even escaped. */
const XML_INVALID = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function escapeXml(value: string): string {
  return value.replace(XML_INVALID, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

const absolute = (base: string, path: string) => `${base.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>';
const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const XHTML_NS = "http://www.w3.org/1999/xhtml";
const NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9";

/**
 * A page's `<url>` elements: one per language it has a page of its own in, each naming all of them (itself
 * included) and x-default, the Arabic address, as alternates, so that every alternate names it back (Google
 * ignores hreflang that is not reciprocal). A page in one language, or with one address for all, has no alternates.
 */
function pageUrls(publicUrl: string, path: string, languages: readonly Language[], extra: (lang: Language) => string = () => ""): string[] {
  const addresses = languages.map((lang) => ({ lang, href: escapeXml(absolute(publicUrl, localizedPath(lang, path))) }));
  const distinct = new Set(addresses.map((a) => a.href));
  if (distinct.size < 2) return [`  <url><loc>${addresses[0].href}</loc>${extra(addresses[0].lang)}</url>`];
  const arabic = addresses.find((a) => a.lang === DEFAULT_LANGUAGE);
  const links = [
    ...addresses.map((a) => `<xhtml:link rel="alternate" hreflang="${a.lang}" href="${a.href}"/>`),
    arabic ? `<xhtml:link rel="alternate" hreflang="x-default" href="${arabic.href}"/>` : "",
  ].join("");
  return addresses.map((a) => `  <url><loc>${a.href}</loc>${extra(a.lang)}${links}</url>`);
}

/**
 * One sitemap file (a <urlset>): the section pages given, in every language, then the pages of the entries with
 * their last modification, each in the languages it has.
 */
export function sitemapXml(publicUrl: string, sections: readonly string[], entries: readonly SitemapEntry[]): string {
  const urls = [
    ...sections.flatMap((path) => pageUrls(publicUrl, path, LANGUAGES)),
    ...entries.flatMap((e) => pageUrls(publicUrl, e.path, e.languages, () => `<lastmod>${e.lastModified.toISOString()}</lastmod>`)),
  ];
  return `${XML_HEAD}\n<urlset xmlns="${SITEMAP_NS}" xmlns:xhtml="${XHTML_NS}">\n${urls.join("\n")}\n</urlset>\n`;
}

/** Where the Google News sitemap is served: named by the sitemap index and robots.txt. */
export const NEWS_SITEMAP_PATH = "/sitemaps/news.xml";

/**
 * The Google News sitemap (https://developers.google.com/search/docs/crawling-indexing/sitemaps/news-sitemap):
 * one `<url>` per item and language it has a text in, with the publication's name in that language, the
 * language, the publication date (W3C) and the title in that language.
 */
export function newsSitemapXml(publicUrl: string, siteNames: Readonly<Record<Language, string>>, items: readonly NewsSitemapItem[]): string {
  const urls = items.flatMap((item) =>
    pageUrls(
      publicUrl,
      item.path,
      LANGUAGES.filter((lang) => item.titles[lang] !== undefined),
      (lang) =>
        "<news:news>" +
        `<news:publication><news:name>${escapeXml(siteNames[lang])}</news:name><news:language>${lang}</news:language></news:publication>` +
        `<news:publication_date>${item.publishDate.toISOString()}</news:publication_date>` +
        `<news:title>${escapeXml(item.titles[lang]!)}</news:title>` +
        "</news:news>",
    ),
  );
  return `${XML_HEAD}\n<urlset xmlns="${SITEMAP_NS}" xmlns:xhtml="${XHTML_NS}" xmlns:news="${NEWS_NS}">\n${urls.join("\n")}\n</urlset>\n`;
}

/** Where the sitemap files of an index live: /sitemaps/1.xml, /sitemaps/2.xml, … */
export const sitemapFilePath = (file: number) => `/sitemaps/${file}.xml`;

/**
 * How the site's URLs split into sitemap files of at most `maxUrls` each (sitemaps.org): the section pages
 * open the first file, the items follow in order. One file means /sitemap.xml is that file itself;
 * more mean /sitemap.xml is an index of them.
 */
export function sitemapFiles(
  sectionCount: number,
  itemCount: number,
  maxUrls: number,
): { files: number; itemWindow: (file: number) => { offset: number; limit: number } | null } {
  const files = Math.max(1, Math.ceil((sectionCount + itemCount) / maxUrls));
  return {
    files,
    itemWindow: (file) => {
      if (!Number.isInteger(file) || file < 1 || file > files) return null;
      const offset = file === 1 ? 0 : (file - 1) * maxUrls - sectionCount;
      return { offset, limit: file === 1 ? maxUrls - sectionCount : maxUrls };
    },
  };
}

/** The sitemap index (a <sitemapindex>) naming each file of pages, then the Google News sitemap. */
export function sitemapIndexXml(publicUrl: string, files: number): string {
  const paths = [...Array.from({ length: files }, (_, i) => sitemapFilePath(i + 1)), NEWS_SITEMAP_PATH];
  const entries = paths.map((path) => `  <sitemap><loc>${escapeXml(absolute(publicUrl, path))}</loc></sitemap>`);
  return `${XML_HEAD}\n<sitemapindex xmlns="${SITEMAP_NS}">\n${entries.join("\n")}\n</sitemapindex>\n`;
}

/** Everything may be crawled but the back-office and the sign-in pages (in each language); both sitemaps named. */
export function robotsTxt(publicUrl: string): string {
  const signIn = LANGUAGES.map((lang) => `Disallow: ${localizedPath(lang, "/auth")}`);
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    ...signIn,
    "",
    `Sitemap: ${absolute(publicUrl, "/sitemap.xml")}`,
    `Sitemap: ${absolute(publicUrl, NEWS_SITEMAP_PATH)}`,
    "",
  ].join("\n");
}

export type RssChannel = {
  title: string;
  description: string;
  /** The feed's language: its items' titles and links are that language's (the French title when written). */
  language: Language;
  publicUrl: string;
  /**
   * The feed's own path (default /rss.xml) and the page it is the feed of (default /): a tag's feed names its
   * own. Language-neutral: written as the channel language's addresses.
   */
  path?: string;
  link?: string;
};

/** The item's summary in the feed's language, then its latest correction with its date (corrections are written in Arabic). */
function descriptionOf(item: FeedItem, lang: Language): string {
  const correction = item.correction ? `تصحيح (${item.correction.at.toISOString().slice(0, 10)}): ${item.correction.text}` : "";
  return [localized(lang, item.excerpt, item.excerptFr) ?? "", correction].filter(Boolean).join("\n\n");
}

export function rssXml(channel: RssChannel, items: readonly FeedItem[]): string {
  const lang = channel.language;
  const address = (path: string) => absolute(channel.publicUrl, localizedPath(lang, path));
  const self = address(channel.path ?? "/rss.xml");
  const lastBuild = items[0]?.publishDate ?? new Date();
  const rendered = items.map((item) => {
    const link = address(item.path);
    const description = descriptionOf(item, lang);
    return [
      "    <item>",
      `      <title>${escapeXml(localized(lang, item.title, item.titleFr))}</title>`,
      `      <link>${escapeXml(link)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `      <pubDate>${item.publishDate.toUTCString()}</pubDate>`,
      description ? `      <description>${escapeXml(description)}</description>` : "",
      // A corrected item says when (decision 0140): feed readers that read Atom's updated show it changed.
      item.correction ? `      <atom:updated>${item.correction.at.toISOString()}</atom:updated>` : "",
      // One dc:creator per author profile (issue 29), else the stored author name.
      ...(item.authors?.length ? item.authors : item.author ? [item.author] : []).map((name) => `      <dc:creator>${escapeXml(name)}</dc:creator>`),
      item.category ? `      <category>${escapeXml(item.category)}</category>` : "",
      "    </item>",
    ]
      .filter(Boolean)
      .join("\n");
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    "  <channel>",
    `    <title>${escapeXml(channel.title)}</title>`,
    `    <link>${escapeXml(address(channel.link ?? "/"))}</link>`,
    `    <description>${escapeXml(channel.description)}</description>`,
    `    <language>${escapeXml(channel.language)}</language>`,
    `    <lastBuildDate>${lastBuild.toUTCString()}</lastBuildDate>`,
    `    <atom:link href="${escapeXml(self)}" rel="self" type="application/rss+xml"/>`,
    ...rendered,
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
}

const ITUNES_NS = "http://www.itunes.com/dtds/podcast-1.0.dtd";

/** Where the podcast feed is served: the podcast definition's `feed` (domain/content-types/podcast.ts). */
export type PodcastChannel = RssChannel & {
  /** The feed's own path, e.g. /podcasts/feed.xml. */
  path: string;
  /** The page the channel links to, e.g. /programs. */
  link: string;
  author: string;
  owner: { name: string; email: string } | null;
  /** The show's artwork (a path or URL). */
  image: string;
  /** An Apple Podcasts category (https://podcasters.apple.com/support/1691-apple-podcasts-categories). */
  category: string;
  explicit: boolean;
};

/** One episode of a podcast feed (server/content/types/podcast.server.ts lists them). */
export type PodcastEpisode = {
  path: string;
  title: string;
  description: string;
  author: string | null;
  episodeNumber: number | null;
  season: string | null;
  duration: string | null;
  imageUrl: string | null;
  audioUrl: string;
  /** The stored file's size from the media library (library_files.bytes); null when the library does not know it. */
  audioBytes: number | null;
  audioMime: string | null;
  publishDate: Date;
};

/** A stored duration ("42:18", "1:02:03" or seconds) as whole seconds, the form Apple recommends; null when it reads as none. */
export function durationSeconds(value: string | null): number | null {
  const m = /^\s*(?:(\d+):)?(?:(\d+):)?(\d+)\s*$/.exec(value ?? "");
  if (!m) return null;
  const parts = [m[1], m[2], m[3]].filter((p) => p !== undefined).map(Number);
  const seconds = parts.reduce((sum, n) => sum * 60 + n, 0);
  return seconds > 0 ? seconds : null;
}

const AUDIO_MIME: Readonly<Record<string, string>> = {
  mp3: "audio/mpeg",
  m4a: "audio/x-m4a",
  mp4: "audio/mp4",
  wav: "audio/wav",
  ogg: "audio/ogg",
  flac: "audio/flac",
};
const audioMimeOf = (url: string) => AUDIO_MIME[/\.([A-Za-z0-9]+)$/.exec(url.replace(/[?#].*$/, ""))?.[1]?.toLowerCase() ?? ""] ?? "audio/mpeg";

/**
 * The podcast feed: RSS 2.0 with the iTunes namespace. Each episode's <enclosure> carries the absolute audio
 * URL, its size in bytes from the media library and its type; a size the library does not know is written
 * as 0, what the RSS Advisory Board advises when the length cannot be determined.
 */
export function podcastRssXml(channel: PodcastChannel, episodes: readonly PodcastEpisode[]): string {
  const url = (path: string) => (/^https?:\/\//.test(path) ? path : absolute(channel.publicUrl, path));
  const lastBuild = episodes[0]?.publishDate ?? new Date();
  const rendered = episodes.map((e) => {
    const link = url(e.path);
    const seconds = durationSeconds(e.duration);
    const season = e.season && /^\d+$/.test(e.season.trim()) ? Number(e.season) : null;
    return [
      "    <item>",
      `      <title>${escapeXml(e.title)}</title>`,
      `      <itunes:title>${escapeXml(e.title)}</itunes:title>`,
      `      <link>${escapeXml(link)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `      <pubDate>${e.publishDate.toUTCString()}</pubDate>`,
      `      <description>${escapeXml(e.description)}</description>`,
      `      <enclosure url="${escapeXml(url(e.audioUrl))}" length="${e.audioBytes && e.audioBytes > 0 ? Math.round(e.audioBytes) : 0}" type="${escapeXml(e.audioMime?.startsWith("audio/") ? e.audioMime : audioMimeOf(e.audioUrl))}"/>`,
      seconds ? `      <itunes:duration>${seconds}</itunes:duration>` : "",
      e.episodeNumber && e.episodeNumber > 0 ? `      <itunes:episode>${e.episodeNumber}</itunes:episode>` : "",
      season && season > 0 ? `      <itunes:season>${season}</itunes:season>` : "",
      "      <itunes:episodeType>full</itunes:episodeType>",
      e.author ? `      <itunes:author>${escapeXml(e.author)}</itunes:author>` : "",
      e.imageUrl ? `      <itunes:image href="${escapeXml(url(e.imageUrl))}"/>` : "",
      `      <itunes:explicit>${channel.explicit ? "true" : "false"}</itunes:explicit>`,
      "    </item>",
    ]
      .filter(Boolean)
      .join("\n");
  });
  return `${[
    XML_HEAD,
    `<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:itunes="${ITUNES_NS}">`,
    "  <channel>",
    `    <title>${escapeXml(channel.title)}</title>`,
    `    <link>${escapeXml(url(channel.link))}</link>`,
    `    <description>${escapeXml(channel.description)}</description>`,
    `    <language>${escapeXml(channel.language)}</language>`,
    `    <lastBuildDate>${lastBuild.toUTCString()}</lastBuildDate>`,
    `    <atom:link href="${escapeXml(url(channel.path))}" rel="self" type="application/rss+xml"/>`,
    `    <itunes:author>${escapeXml(channel.author)}</itunes:author>`,
    `    <itunes:summary>${escapeXml(channel.description)}</itunes:summary>`,
    channel.owner
      ? `    <itunes:owner><itunes:name>${escapeXml(channel.owner.name)}</itunes:name><itunes:email>${escapeXml(channel.owner.email)}</itunes:email></itunes:owner>`
      : "",
    `    <itunes:image href="${escapeXml(url(channel.image))}"/>`,
    `    <image><url>${escapeXml(url(channel.image))}</url><title>${escapeXml(channel.title)}</title><link>${escapeXml(url(channel.link))}</link></image>`,
    `    <itunes:category text="${escapeXml(channel.category)}"/>`,
    `    <itunes:explicit>${channel.explicit ? "true" : "false"}</itunes:explicit>`,
    "    <itunes:type>episodic</itunes:type>",
    ...rendered,
    "  </channel>",
    "</rss>",
  ]
    .filter(Boolean)
    .join("\n")}\n`;
}
