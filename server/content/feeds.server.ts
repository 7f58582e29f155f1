/**
 * The machine-readable site files: sitemap.xml (sitemaps.org 0.9, an index of files past 50,000 URLs),
 * robots.txt and rss.xml (RSS 2.0).
 * Pure functions of their inputs; the routes fetch the data. Every URL is absolute, built from PUBLIC_URL.
 */
import type { FeedItem, SitemapEntry } from "./sitemap.server.ts";

/** Characters XML 1.0 cannot carry at all, even escaped. */
const XML_INVALID = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function escapeXml(value: string): string {
  return value.replace(XML_INVALID, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

const absolute = (base: string, path: string) => `${base.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>';
const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";

/** One sitemap file (a <urlset>): the section pages given, then the items with their last modification. */
export function sitemapXml(publicUrl: string, sections: readonly string[], entries: readonly SitemapEntry[]): string {
  const urls = [
    ...sections.map((path) => `  <url><loc>${escapeXml(absolute(publicUrl, path))}</loc></url>`),
    ...entries.map((e) => `  <url><loc>${escapeXml(absolute(publicUrl, e.path))}</loc><lastmod>${e.lastModified.toISOString()}</lastmod></url>`),
  ];
  return `${XML_HEAD}\n<urlset xmlns="${SITEMAP_NS}">\n${urls.join("\n")}\n</urlset>\n`;
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

/** The sitemap index (a <sitemapindex>) naming each file. */
export function sitemapIndexXml(publicUrl: string, files: number): string {
  const entries = Array.from({ length: files }, (_, i) => `  <sitemap><loc>${escapeXml(absolute(publicUrl, sitemapFilePath(i + 1)))}</loc></sitemap>`);
  return `${XML_HEAD}\n<sitemapindex xmlns="${SITEMAP_NS}">\n${entries.join("\n")}\n</sitemapindex>\n`;
}

export function robotsTxt(publicUrl: string): string {
  return ["User-agent: *", "Allow: /", "Disallow: /admin", "Disallow: /auth", "", `Sitemap: ${absolute(publicUrl, "/sitemap.xml")}`, ""].join("\n");
}

export type RssChannel = { title: string; description: string; language: string; publicUrl: string };

export function rssXml(channel: RssChannel, items: readonly FeedItem[]): string {
  const self = absolute(channel.publicUrl, "/rss.xml");
  const lastBuild = items[0]?.publishDate ?? new Date();
  const rendered = items.map((item) => {
    const link = absolute(channel.publicUrl, item.path);
    return [
      "    <item>",
      `      <title>${escapeXml(item.title)}</title>`,
      `      <link>${escapeXml(link)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `      <pubDate>${item.publishDate.toUTCString()}</pubDate>`,
      item.excerpt ? `      <description>${escapeXml(item.excerpt)}</description>` : "",
      item.author ? `      <dc:creator>${escapeXml(item.author)}</dc:creator>` : "",
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
    `    <link>${escapeXml(absolute(channel.publicUrl, "/"))}</link>`,
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
