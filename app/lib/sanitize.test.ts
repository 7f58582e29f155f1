import { describe, expect, it } from "vitest";
import { sanitizeText } from "./sanitize.ts";

/** Markup that must never survive, whatever else survives around it: a whole tag, a scheme, a handler, a control character. */
const DANGER = /<\/?[a-z!?][^<>]*>|javascript\s*:|\bon[a-z]+\s*=|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/i;

describe("sanitizeText (public-site.md §5)", () => {
  const nasty: [label: string, input: string, expected: string][] = [
    ["script block", "<script>window.__pwned=1</script>", ""],
    ["script block with attributes and text around", 'hello <script type="text/javascript">alert(1)</script> world', "hello  world"],
    ["script block in capitals over lines", "a<SCRIPT>\nalert(1)\n</SCRIPT >b", "ab"],
    ["unclosed script swallows the rest", "ok <script>alert(1)", "ok"],
    ["split script that joins after one pass", "<scr<script></script>ipt>alert(1)</script>", ""],
    ["img onerror", '<img src=x onerror="window.__pwned=2">', ""],
    ["the e2e payload", '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">', ""],
    ["svg onload", "<svg/onload=alert(1)>", ""],
    ["javascript link", '<a href="javascript:alert(1)">click</a>', "click"],
    ["bare javascript: prefix", "javascript:alert(1)", "alert(1)"],
    ["javascript: with tab and newline inside", "java\tscr\nipt:alert(1)", "alert(1)"],
    ["javascript: in capitals", "JaVaScRiPt:alert(1)", "alert(1)"],
    ["nested javascript prefix", "javajavascript:script:alert(1)", "alert(1)"],
    ["handler outside a tag", 'x onmouseover="steal()" y', "x  y"],
    ["handler with single quotes", "onclick='a()'", ""],
    ["unquoted handler", "onfocus=alert(1) text", "text"],
    ["html comment", "a<!-- <script>x</script> -->b", "ab"],
    ["iframe", '<iframe src="https://evil.example"></iframe>', ""],
    ["style block tags", "<style>body{display:none}</style>text", "body{display:none}text"],
    ["NUL and bell", "a\u0000b\u0007c", "abc"],
    ["escape and DEL", "a\u001b[31mb\u007f", "a[31mb"],
    ["bidi override", "abc\u202Eevil", "abcevil"],
    ["surrounding whitespace", "   مرحبا   ", "مرحبا"],
  ];
  it.each(nasty)("%s", (_label, input, expected) => {
    const out = sanitizeText(input);
    expect(out).toBe(expected);
    expect(out).not.toMatch(DANGER);
  });

  it("keeps ordinary text, Arabic and French, and comparison signs", () => {
    expect(sanitizeText("السلام عليكم، أريد الاستفسار عن برنامج «خطوة».")).toBe("السلام عليكم، أريد الاستفسار عن برنامج «خطوة».");
    expect(sanitizeText("Bonjour, l'émission d'hier était très réussie !")).toBe("Bonjour, l'émission d'hier était très réussie !");
    expect(sanitizeText("3 < 5 and 7 > 2, <3")).toBe("3 < 5 and 7 > 2, <3");
    expect(sanitizeText("contact@example.org")).toBe("contact@example.org");
  });

  it("keeps newlines and tabs in multi-line text only", () => {
    expect(sanitizeText("line one\r\nline two\n\tindented", { multiline: true })).toBe("line one\nline two\n\tindented");
    expect(sanitizeText("line one\r\nline two\n\tindented")).toBe("line one line two indented");
  });

  it("returns an empty string for anything that is not a string", () => {
    for (const value of [null, undefined, 42, {}, ["<b>"]]) expect(sanitizeText(value)).toBe("");
  });

  it("cannot be made to keep markup by deep nesting", () => {
    const deep = "<scr".repeat(40) + "<script></script>" + "ipt>".repeat(40) + "alert(1)";
    expect(sanitizeText(deep)).not.toMatch(DANGER);
  });
});
