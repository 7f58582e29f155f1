/**
 * Stored rich text (article and news bodies written in the newsroom editor): the HTML is cleaned by
 * sanitize-html on every save, so what the database holds is safe to render as HTML anywhere (pages, RSS,
 * e-mails). An allow-list, nothing else: paragraphs, headings 2–4, emphasis, links, lists, quotes, figures
 * with images, rules and code, each with `dir` and `lang` so mixed Arabic and French text keeps its
 * direction. No style, no class, no script, no event handler, no frame, no form.
 *
 * `richTextToPlainText` gives the words of such HTML for excerpts, search and feeds; `richTextForPage` what a reading
 * page shows, its embeds marked.
 */
import sanitizeHtml from "sanitize-html";
import { Parser } from "htmlparser2";
import { markEmbeds, type EmbedService } from "#domain/embeds.ts";
import { getConfig } from "#server/config.server.ts";

const TAGS = ["p", "br", "h2", "h3", "h4", "strong", "b", "em", "i", "u", "s", "a", "ul", "ol", "li", "blockquote"];
const ALLOWED_TAGS = [...TAGS, "figure", "figcaption", "img", "hr", "code", "pre"];

/** A BCP 47-looking language tag ("ar", "fr-FR", "ar-Latn-MR"). */
const LANG = /^[a-z]{2,3}(?:-[a-z0-9]{2,8}){0,3}$/i;
const DIMENSION = /^\d{1,4}$/;

/** Image sources: the web, or files we serve ourselves under /uploads/. */
function imageSourceAllowed(src: string): boolean {
  if (/^https?:\/\//i.test(src)) return true;
  if (!src.startsWith("/uploads/")) return false;
  // "/uploads/../x" resolves elsewhere on the site.
  return new URL(src, "http://localhost").pathname.startsWith("/uploads/");
}

/** The link types a link may carry (rel): what the editor's link options set, and what a new tab adds. */
export const LINK_RELS: ReadonlySet<string> = new Set(["nofollow", "sponsored", "ugc", "noopener", "noreferrer"]);

/** Checks the values of the attributes sanitize-html lets through by name. */
function cleanAttributes(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const out: sanitizeHtml.Attributes = { ...attribs };
  if (out.dir !== undefined && !["rtl", "ltr", "auto"].includes(out.dir.toLowerCase())) delete out.dir;
  else if (out.dir !== undefined) out.dir = out.dir.toLowerCase();
  if (out.lang !== undefined && !LANG.test(out.lang)) delete out.lang;
  if (tagName === "img") {
    if (out.src !== undefined && !imageSourceAllowed(out.src.trim())) delete out.src;
    for (const name of ["width", "height"]) if (out[name] !== undefined && !DIMENSION.test(out[name])) delete out[name];
    if (out.loading !== undefined && !["lazy", "eager"].includes(out.loading)) delete out.loading;
  }
  if (tagName === "a") {
    // The editor's choices are kept as they are (issue 29: none forced); only known link types pass.
    const rel = new Set(
      (out.rel ?? "")
        .toLowerCase()
        .split(/\s+/)
        .filter((value) => LINK_RELS.has(value)),
    );
    if (out.target !== undefined && out.target !== "_blank") delete out.target;
    // A page opened in a new tab must not reach back to ours through window.opener.
    if (out.target === "_blank") rel.add("noopener").add("noreferrer");
    if (rel.size) out.rel = [...rel].join(" ");
    else delete out.rel;
  }
  return { tagName, attribs: out };
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    "*": ["dir", "lang"],
    a: ["href", "title", "rel", "target"],
    img: ["src", "alt", "width", "height", "loading"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  // The text inside these is not content: drop it with the tag.
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "iframe", "object", "embed", "template", "svg", "math", "title", "select"],
  // The page's title is its only h1: pasted headings keep their rank below it.
  transformTags: { h1: "h2", h5: "h4", h6: "h4", "*": cleanAttributes },
  // An image whose source was refused is dropped rather than left as an empty box.
  exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
};

/** The stored form of editor HTML: only the allowed tags and attributes, with safe links and images. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/**
 * Stored rich text as a reading page shows it: sanitised again, and each post or video of another service pasted
 * alone in a paragraph marked as an embed (domain/embeds.ts), framed at once only for the services EMBEDS_ALLOWED
 * names; the page gives the others a placeholder that asks first (docs/decisions/0150-embeds-ask-first.md).
 */
export function richTextForPage(html: string, allowed: readonly EmbedService[] = getConfig().EMBEDS_ALLOWED): string {
  return markEmbeds(sanitizeRichText(html), allowed);
}

const BLOCKS = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "blockquote", "figure", "figcaption", "pre", "hr", "ul", "ol", "div", "table", "tr"]);
const SKIPPED = new Set(["script", "style", "noscript", "template", "iframe", "object", "svg", "math", "title", "head"]);

/**
 * The text of rich text, entities decoded: blocks become paragraphs separated by a blank line, <br> a line
 * break, runs of spaces one space. For excerpts, search indexing and feeds; escape it again to show it.
 */
export function richTextToPlainText(html: string): string {
  let text = "";
  let skipping = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIPPED.has(name)) skipping++;
        else if (name === "br") text += "\n";
        else if (BLOCKS.has(name)) text += "\n\n";
      },
      ontext(data) {
        if (!skipping) text += data;
      },
      onclosetag(name) {
        if (SKIPPED.has(name)) skipping = Math.max(0, skipping - 1);
        else if (BLOCKS.has(name)) text += "\n\n";
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return text
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
