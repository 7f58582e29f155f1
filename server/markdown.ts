/**
 * A small Markdown renderer for editor-maintained pages (the legal pages in content/legal). It knows
 * headings, paragraphs, bullet and numbered lists, bold, italic, inline code, horizontal rules and links,
 * and nothing else: every character of the source is escaped, raw HTML shows as text, and a link is only
 * made for http(s) and same-site relative targets. The output is safe to insert as HTML.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** http(s) URLs and paths on this site ("/x", "#x", "x/y"); never "//host", "javascript:" or other schemes. */
export function safeHref(raw: string): string | null {
  const href = raw.trim();
  if (/^https?:\/\/[^\s/]/i.test(href)) return href;
  if (href.startsWith("//") || href.startsWith("\\") || /^\/\\/.test(href)) return null;
  // Anything with a scheme before the first / ? # is refused (javascript:, data:, vbscript:, mailto:, …).
  if (/^[^/?#]*:/.test(href)) return null;
  return href && !/[\s\u0000-\u001f]/.test(href) ? href : null;
}

const INLINE =
  /\[([^\]\n]+)\]\(([^()\s]+)\)|\*\*(?=\S)([\s\S]*?\S)\*\*|\*(?=\S)([\s\S]*?\S)\*|(?<![\p{L}\p{N}])_(?=\S)([\s\S]*?\S)_(?![\p{L}\p{N}])|`([^`\n]+)`/gu;

/** Inline Markdown of one block: escaped text with strong, em, code and links. */
export function renderInline(src: string): string {
  let out = "";
  let last = 0;
  for (const m of src.matchAll(INLINE)) {
    out += escapeHtml(src.slice(last, m.index));
    last = m.index + m[0].length;
    const [, linkText, linkHref, strong, em1, em2, code] = m;
    if (linkText !== undefined) {
      const href = safeHref(linkHref);
      const external = href !== null && /^https?:/i.test(href);
      out +=
        href === null ? renderInline(linkText) : `<a href="${escapeHtml(href)}"${external ? ' rel="noopener noreferrer"' : ""}>${renderInline(linkText)}</a>`;
    } else if (strong !== undefined) out += `<strong>${renderInline(strong)}</strong>`;
    else if (em1 !== undefined || em2 !== undefined) out += `<em>${renderInline(em1 ?? em2)}</em>`;
    else out += `<code>${escapeHtml(code)}</code>`;
  }
  return out + escapeHtml(src.slice(last));
}

type Block =
  | { kind: "heading"; level: number; text: string }
  | { kind: "paragraph"; lines: string[] }
  | { kind: "list"; ordered: boolean; items: string[] }
  | { kind: "rule" };

function parseBlocks(source: string): Block[] {
  const blocks: Block[] = [];
  let current: Block | null = null;
  const close = () => {
    if (current) blocks.push(current);
    current = null;
  };
  for (const raw of source.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.replace(/\s+$/, "");
    const heading = /^(#{1,6})\s+(.*?)\s*#*$/.exec(line);
    const bullet = /^\s{0,3}[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s{0,3}\d{1,9}[.)]\s+(.*)$/.exec(line);
    if (!line.trim()) close();
    else if (heading) {
      close();
      blocks.push({ kind: "heading", level: heading[1].length, text: heading[2] });
    } else if (/^\s{0,3}([-*_])(\s*\1){2,}$/.test(line)) {
      close();
      blocks.push({ kind: "rule" });
    } else if (bullet || numbered) {
      const ordered = !bullet;
      const text = (bullet ?? numbered)![1];
      const open = current as Block | null;
      if (open?.kind === "list" && open.ordered === ordered) open.items.push(text);
      else {
        close();
        current = { kind: "list", ordered, items: [text] };
      }
    } else {
      const open = current as Block | null;
      // An indented line continues the last list item; any other line continues (or starts) a paragraph.
      if (open?.kind === "list" && /^\s+/.test(line)) open.items[open.items.length - 1] += ` ${line.trim()}`;
      else if (open?.kind === "paragraph") open.lines.push(line.trim());
      else {
        close();
        current = { kind: "paragraph", lines: [line.trim()] };
      }
    }
  }
  close();
  return blocks;
}

export function renderMarkdown(source: string): string {
  return parseBlocks(source)
    .map((b) => {
      switch (b.kind) {
        case "heading":
          return `<h${b.level}>${renderInline(b.text)}</h${b.level}>`;
        case "paragraph":
          return `<p>${renderInline(b.lines.join("\n"))}</p>`;
        case "list": {
          const tag = b.ordered ? "ol" : "ul";
          return `<${tag}>${b.items.map((i) => `<li>${renderInline(i)}</li>`).join("")}</${tag}>`;
        }
        case "rule":
          return "<hr>";
      }
    })
    .join("\n");
}

/** The text of the first heading, for the page title. */
export function firstHeading(source: string): string | null {
  const m = /^#{1,6}\s+(.*?)\s*#*$/m.exec(source);
  return m ? m[1].replace(/[*_`]/g, "").trim() : null;
}
