/**
 * The machine-readable site files: sitemap.xml (sitemaps.org 0.9), robots.txt and rss.xml (RSS 2.0).
 * Pure functions of their inputs; the routes fetch the data. Every URL is absolute, built from PUBLIC_URL.
 */
import type { FeedItem, SitemapEntry } from "./content/sitemap.ts";

/** Characters XML 1.0 cannot carry at all, even escaped. */
const XML_INVALID = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function escapeXml(value: string): string {
  return value.replace(XML_INVALID, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

const absolute = (base: string, path: string) => `${base.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;

export function sitemapXml(publicUrl: string, sections: readonly string[], entries: readonly SitemapEntry[]): string {
  const urls = [
    ...sections.map((path) => `  <url><loc>${escapeXml(absolute(publicUrl, path))}</loc></url>`),
    ...entries.map((e) => `  <url><loc>${escapeXml(absolute(publicUrl, e.path))}</loc><lastmod>${e.lastModified.toISOString()}</lastmod></url>`),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
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
