import { describe, expect, it } from "vitest";
import { firstHeading, renderMarkdown, safeHref } from "./markdown.server.ts";

const inline = (src: string) => renderMarkdown(src).replace(/^<p>|<\/p>\n$/g, "");

describe("the Markdown renderer", () => {
  it("renders headings, paragraphs, lists, emphasis, code and rules", () => {
    const html = renderMarkdown(
      "# Title\n\nSome **bold** and *italic* and _also_ text with `code`.\nSame paragraph.\n\n- one\n- two\n  continued\n\n1. first\n2. second\n\n---\n\n## Sub",
    );
    expect(html).toBe(
      [
        "<h1>Title</h1>",
        "<p>Some <strong>bold</strong> and <em>italic</em> and <em>also</em> text with <code>code</code>.\nSame paragraph.</p>",
        "<ul>\n<li>one</li>\n<li>two\ncontinued</li>\n</ul>",
        "<ol>\n<li>first</li>\n<li>second</li>\n</ol>",
        "<hr>",
        "<h2>Sub</h2>",
        "",
      ].join("\n"),
    );
  });

  it("handles Arabic text and leaves snake_case words alone", () => {
    expect(renderMarkdown("## سياسة **الخصوصية**")).toBe("<h2>سياسة <strong>الخصوصية</strong></h2>\n");
    expect(inline("a_b_c")).toBe("a_b_c");
  });

  it("shows raw HTML as text", () => {
    const html = renderMarkdown('<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n# <b>x</b>\n\n- <iframe src=//evil>');
    expect(html).not.toMatch(/<(script|img|b|iframe)\b/);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(2)&quot;&gt;");
    expect(inline(`"quotes" & 'apostrophes' 5 < 6`)).toBe("&quot;quotes&quot; &amp; 'apostrophes' 5 &lt; 6");
  });

  it("makes no images: a page's Markdown cannot load anything from elsewhere", () => {
    expect(renderMarkdown("![tracker](https://evil.example/pixel.gif)")).not.toContain("<img");
  });

  it("links only http(s) and same-site relative targets", () => {
    expect(inline("[site](https://example.org/a?b=1&c=2)")).toBe('<a href="https://example.org/a?b=1&amp;c=2" rel="noopener noreferrer">site</a>');
    expect(inline("[contact](/contact)")).toBe('<a href="/contact">contact</a>');
    expect(inline("[top](#rights)")).toBe('<a href="#rights">top</a>');
    for (const bad of ["javascript:alert(1)", "JAVASCRIPT:alert`1`", "data:text/html;base64,PHNjcmlwdD4=", "vbscript:x", "//evil.example/x", "mailto:a@b.co"]) {
      const html = inline(`[x](${bad})`);
      expect(html, bad).not.toContain("<a");
      expect(safeHref(bad), bad).toBeNull();
    }
    // markdown-it percent-encodes the backslash before the check, so the link stays a path on this site.
    const href = /href="([^"]+)"/.exec(inline("[x](/\\evil.example)"))?.[1] ?? "";
    expect(new URL(href, "https://sahara.example").origin).toBe("https://sahara.example");
  });

  it("keeps attribute values closed: a quote in a URL cannot break out", () => {
    const html = inline('[x](https://a.org/"onmouseover="alert(1))');
    expect(html).not.toMatch(/"\s*onmouseover=/);
  });

  it("finds the first heading for the page title", () => {
    expect(firstHeading("intro\n\n# **Privacy** policy\n\n## More")).toBe("Privacy policy");
    expect(firstHeading("## سياسة `الخصوصية`")).toBe("سياسة الخصوصية");
    expect(firstHeading("no heading")).toBeNull();
  });
});
