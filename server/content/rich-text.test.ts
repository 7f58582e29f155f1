import { describe, expect, it } from "vitest";
import { richTextToPlainText, sanitizeRichText } from "./rich-text.server.ts";

/** Anything that could run script or load a frame, in whatever case. */
const DANGER = /<(script|style|iframe|object|embed|svg|math|form|input|meta|link|base)\b|\son[a-z]+\s*=|javascript:|vbscript:|data:text|style=|srcdoc/i;

describe("sanitizeRichText", () => {
  const vectors: [label: string, input: string][] = [
    ["script block", "<p>a</p><script>alert(1)</script><p>b</p>"],
    ["script in capitals", "<SCRIPT SRC=//evil.example/x.js></SCRIPT>"],
    ["img onerror", '<img src=x onerror="alert(1)">'],
    ["img onerror with a good source", '<img src="/uploads/a.jpg" onerror="alert(1)">'],
    ["svg onload", "<svg/onload=alert(1)>"],
    ["svg with script", "<svg><script>alert(1)</script></svg>"],
    ["javascript link", '<a href="javascript:alert(1)">x</a>'],
    ["javascript link in mixed case with spaces", '<a href="  JaVaScRiPt:alert(1)">x</a>'],
    ["javascript link with a tab inside", '<a href="java\tscript:alert(1)">x</a>'],
    ["javascript link with entities", '<a href="jav&#x61;script&colon;alert(1)">x</a>'],
    ["vbscript link", '<a href="vbscript:msgbox(1)">x</a>'],
    ["data: link", '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
    ["data: image", '<img src="data:image/svg+xml;base64,PHN2Zy8+">'],
    ["iframe", '<iframe src="https://evil.example"></iframe>'],
    ["iframe srcdoc", '<iframe srcdoc="<script>alert(1)</script>"></iframe>'],
    ["object and embed", '<object data="x.swf"></object><embed src="x.swf">'],
    ["style attribute", '<p style="background:url(javascript:alert(1))">x</p>'],
    ["style block", "<style>body{display:none}</style><p>x</p>"],
    ["event handler on an allowed tag", '<p onclick="alert(1)" onmouseover=alert(2)>x</p>'],
    ["form", '<form action="https://evil.example"><input name="password"></form>'],
    ["meta refresh and base", '<meta http-equiv="refresh" content="0;url=https://evil.example"><base href="https://evil.example/">'],
    ["comment hiding markup", "<!--><script>alert(1)</script>-->"],
    ["mutation XSS through math", "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>"],
    ["unclosed tag", "<p>ok <img src=x onerror=alert(1)//"],
    ["nested tag names", "<scr<script>ipt>alert(1)</script>"],
  ];

  it.each(vectors)("removes %s", (_label, input) => {
    expect(sanitizeRichText(input)).not.toMatch(DANGER);
  });

  it("keeps the text around what it removes", () => {
    expect(sanitizeRichText("<p>a</p><script>alert(1)</script><p>b</p>")).toBe("<p>a</p><p>b</p>");
    expect(sanitizeRichText('<p onclick="x()">نص</p>')).toBe("<p>نص</p>");
    expect(sanitizeRichText('<div class="x"><span style="color:red">نص</span></div>')).toBe("نص");
    expect(sanitizeRichText('<a href="javascript:alert(1)">رابط</a>')).toBe("<a>رابط</a>");
  });

  it("keeps the allowed structure as written", () => {
    const html = [
      "<h2>عنوان</h2>",
      "<h3>فرعي</h3>",
      "<h4>أصغر</h4>",
      "<p>نص <strong>عريض</strong> <b>ب</b> <em>مائل</em> <i>i</i> <u>u</u> <s>s</s> و<code>x &lt; y</code><br>سطر</p>",
      "<ul><li>أ</li></ul>",
      "<ol><li>1</li></ol>",
      "<blockquote>قول</blockquote>",
      '<figure><img src="/uploads/2026/a.jpg" alt="صورة" width="800" height="600" loading="lazy"><figcaption>تعليق</figcaption></figure>',
      "<hr>",
      "<pre><code>line 1\nline 2</code></pre>",
    ].join("");
    expect(sanitizeRichText(html)).toBe(
      html
        .replace("<br>", "<br />")
        .replace(/(<img[^>]*)>/, "$1 />")
        .replace("<hr>", "<hr />"),
    );
  });

  it("ranks pasted headings below the page title", () => {
    expect(sanitizeRichText("<h1>أ</h1><h5>ب</h5><h6>ج</h6>")).toBe("<h2>أ</h2><h4>ب</h4><h4>ج</h4>");
  });

  it("keeps Arabic text, its punctuation and mixed-direction text intact, with dir and lang", () => {
    const html =
      '<p dir="rtl" lang="ar">قال الشاعر: «الصحراء بحرٌ من الرمال»، أليس كذلك؟ ١٢٣ — نعم؛ <span>x</span><em dir="ltr" lang="fr">la Mauritanie</em>.</p>';
    expect(sanitizeRichText(html)).toBe(
      '<p dir="rtl" lang="ar">قال الشاعر: «الصحراء بحرٌ من الرمال»، أليس كذلك؟ ١٢٣ — نعم؛ x<em dir="ltr" lang="fr">la Mauritanie</em>.</p>',
    );
    expect(sanitizeRichText('<h2 dir="auto">عنوان</h2>')).toBe('<h2 dir="auto">عنوان</h2>');
  });

  it("keeps ordinary text with signs that look like markup, escaped", () => {
    expect(sanitizeRichText('<p>5 &lt; 6 &amp; "quotes" 7 > 2</p>')).toBe('<p>5 &lt; 6 &amp; "quotes" 7 &gt; 2</p>');
  });

  it("drops dir and lang values that are not a direction or a language tag", () => {
    expect(sanitizeRichText('<p dir="sideways" lang="x onmouseover=y">t</p>')).toBe("<p>t</p>");
    expect(sanitizeRichText('<p dir="RTL">t</p>')).toBe('<p dir="rtl">t</p>');
  });

  it("links to http, https, mailto and this site only", () => {
    expect(sanitizeRichText('<a href="https://example.org/a?b=1&amp;c=2" title="t">x</a>')).toBe('<a href="https://example.org/a?b=1&amp;c=2" title="t">x</a>');
    expect(sanitizeRichText('<a href="mailto:contact@example.org">x</a>')).toBe('<a href="mailto:contact@example.org">x</a>');
    expect(sanitizeRichText('<a href="/news/x">x</a>')).toBe('<a href="/news/x">x</a>');
    expect(sanitizeRichText('<a href="#part-2">x</a>')).toBe('<a href="#part-2">x</a>');
    for (const bad of ["//evil.example/x", "ftp://example.org/x", "tel:+222", "file:///etc/passwd"]) {
      expect(sanitizeRichText(`<a href="${bad}">x</a>`), bad).toBe("<a>x</a>");
    }
  });

  it("adds noopener noreferrer to links that open a new tab, and drops other targets", () => {
    expect(sanitizeRichText('<a href="https://example.org" target="_blank">x</a>')).toBe(
      '<a href="https://example.org" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeRichText('<a href="https://example.org" target="_blank" rel="nofollow">x</a>')).toBe(
      '<a href="https://example.org" target="_blank" rel="nofollow noopener noreferrer">x</a>',
    );
    expect(sanitizeRichText('<a href="https://example.org" target="_top">x</a>')).toBe('<a href="https://example.org">x</a>');
  });

  it("keeps exactly the link types the editor chose, none forced (issue 29)", () => {
    // No option ticked: no rel at all (no nofollow added).
    expect(sanitizeRichText('<a href="https://example.org">x</a>')).toBe('<a href="https://example.org">x</a>');
    expect(sanitizeRichText('<a href="https://example.org" rel="sponsored">x</a>')).toBe('<a href="https://example.org" rel="sponsored">x</a>');
    expect(sanitizeRichText('<a href="https://example.org" rel="nofollow sponsored">x</a>')).toBe(
      '<a href="https://example.org" rel="nofollow sponsored">x</a>',
    );
    expect(sanitizeRichText('<a href="https://example.org" target="_blank" rel="sponsored noopener noreferrer">x</a>')).toBe(
      '<a href="https://example.org" target="_blank" rel="sponsored noopener noreferrer">x</a>',
    );
    // A stored link from before (the editor forced these) is unchanged.
    expect(sanitizeRichText('<a href="https://example.org" rel="noopener noreferrer nofollow">x</a>')).toBe(
      '<a href="https://example.org" rel="noopener noreferrer nofollow">x</a>',
    );
    expect(sanitizeRichText('<a href="https://example.org" rel="ugc">x</a>')).toBe('<a href="https://example.org" rel="ugc">x</a>');
  });

  it("drops link types outside the allow-list, and an empty rel", () => {
    expect(sanitizeRichText('<a href="https://example.org" rel="me opener prefetch">x</a>')).toBe('<a href="https://example.org">x</a>');
    expect(sanitizeRichText('<a href="https://example.org" rel="NOFOLLOW author">x</a>')).toBe('<a href="https://example.org" rel="nofollow">x</a>');
    expect(sanitizeRichText('<a href="https://example.org" rel="">x</a>')).toBe('<a href="https://example.org">x</a>');
    expect(sanitizeRichText('<a href="https://example.org" target="_self" rel="sponsored">x</a>')).toBe('<a href="https://example.org" rel="sponsored">x</a>');
  });

  it("shows images from the web or /uploads/ only, with numeric sizes", () => {
    expect(sanitizeRichText('<img src="https://cdn.example.org/a.jpg" alt="a">')).toBe('<img src="https://cdn.example.org/a.jpg" alt="a" />');
    for (const bad of ["/admin/x.png", "/uploads/../admin", "x.png", "//evil.example/a.png", "javascript:alert(1)", "data:image/png;base64,AAAA", "blob:x"]) {
      expect(sanitizeRichText(`<p><img src="${bad}" alt="a"></p>`), bad).toBe("<p></p>");
    }
    expect(sanitizeRichText('<img src="/uploads/a.jpg" width="100%" height="50" loading="sometimes">')).toBe('<img src="/uploads/a.jpg" height="50" />');
  });

  it("is stable: cleaning clean HTML changes nothing", () => {
    const once = sanitizeRichText('<p dir="rtl">أ <a href="https://x.org" target="_blank">ب</a><img src="/uploads/a.jpg" alt="ج"></p><script>x</script>');
    expect(sanitizeRichText(once)).toBe(once);
  });
});

describe("richTextToPlainText", () => {
  it("gives the words, one paragraph per block and a line per <br>, entities decoded", () => {
    const html =
      "<h2>عنوان</h2><p>سطر أول<br>سطر   ثانٍ &amp; 5 &lt; 6</p><ul><li>أ</li><li>ب</li></ul><figure><img src='/uploads/a.jpg' alt='x'><figcaption>تعليق</figcaption></figure>";
    expect(richTextToPlainText(html)).toBe("عنوان\n\nسطر أول\nسطر ثانٍ & 5 < 6\n\nأ\n\nب\n\nتعليق");
  });

  it("leaves out scripts and styles, and inline tags do not split words", () => {
    expect(richTextToPlainText("<p>مر<strong>حبا</strong></p><script>alert(1)</script><style>p{}</style>")).toBe("مرحبا");
  });

  it("returns an empty string for empty or markup-only HTML", () => {
    expect(richTextToPlainText("")).toBe("");
    expect(richTextToPlainText("<p> </p><hr>")).toBe("");
  });
});
