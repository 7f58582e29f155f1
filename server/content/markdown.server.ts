/**
 * Markdown for editor-maintained pages (the legal pages in content/legal), by markdown-it with raw HTML
 * off: HTML in the source shows as text. Images are off (the pages have none, and an image would load from
 * wherever it points), and a link is only made for http(s) and same-site relative targets, external ones
 * with rel="noopener noreferrer". The output is safe to insert as HTML.
 */
import MarkdownIt from "markdown-it";

/** http(s) URLs and paths on this site ("/x", "#x", "x/y"); never "//host", "javascript:" or other schemes. */
export function safeHref(raw: string): string | null {
  const href = raw.trim();
  if (/^https?:\/\/[^\s/]/i.test(href)) return href;
  if (href.startsWith("//") || href.startsWith("\\") || /^\/\\/.test(href)) return null;
  // Anything with a scheme before the first / ? # is refused (javascript:, data:, vbscript:, mailto:, …).
  if (/^[^/?#]*:/.test(href)) return null;
  return href && !/[\s\p{Cc}]/u.test(href) ? href : null;
}

const md = new MarkdownIt({ html: false, linkify: false, typographer: false }).disable("image");
md.validateLink = (url) => safeHref(url) !== null;

const renderLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  if (/^https?:/i.test(String(tokens[idx].attrGet("href") ?? ""))) tokens[idx].attrSet("rel", "noopener noreferrer");
  return renderLinkOpen(tokens, idx, options, env, self);
};

export function renderMarkdown(source: string): string {
  return md.render(source);
}

/** The text of the first heading, for the page title. */
export function firstHeading(source: string): string | null {
  const tokens = md.parse(source, {});
  const open = tokens.findIndex((t) => t.type === "heading_open");
  if (open < 0) return null;
  const text = (tokens[open + 1].children ?? [])
    .filter((t) => t.type === "text" || t.type === "code_inline")
    .map((t) => t.content)
    .join("");
  return text.trim() || null;
}
