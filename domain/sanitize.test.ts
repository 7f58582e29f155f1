import { describe, expect, it } from "vitest";
import { sanitizeText } from "./sanitize.ts";

describe("sanitizeText (public-site.md §5)", () => {
  it("stores ordinary text exactly as typed, signs that look like markup included", () => {
    for (const text of [
      '5 < 6 & "quotes"',
      "السلام عليكم، أريد الاستفسار عن برنامج «خطوة»؛ هل يُعاد بثّه؟",
      "Bonjour, l'émission d'hier était très réussie !",
      "3 < 5 and 7 > 2, <3",
      "x<y and z>w",
      "one = 1, onion=3, someone said: javascript: is a language",
      "<b>bold</b> is how HTML writes it",
      "contact@example.org",
      "أحمد ولد محمد — ١٢٣ ٤٥٦",
    ]) {
      expect(sanitizeText(text)).toBe(text);
    }
  });

  it("keeps the marks Arabic keyboards type: LRM, RLM, ALM, ZWJ and ZWNJ", () => {
    const text = "نص\u200F (abc)\u200E \u061Cنص\u200Cنص\u200Dنص";
    expect(sanitizeText(text)).toBe(text);
  });

  it("removes control characters, bidi overrides and isolates", () => {
    expect(sanitizeText("a\u0000b\u0007c")).toBe("abc");
    expect(sanitizeText("a\u001b[31mb\u007f")).toBe("a[31mb");
    expect(sanitizeText("a\u0085b\u009Fc")).toBe("abc");
    expect(sanitizeText("abc\u202Eevil")).toBe("abcevil");
    expect(sanitizeText("\u2066x\u2069")).toBe("x");
  });

  it("trims", () => {
    expect(sanitizeText("   مرحبا   ")).toBe("مرحبا");
    expect(sanitizeText(" \n\t ")).toBe("");
  });

  it("keeps newlines and tabs in multi-line text only", () => {
    expect(sanitizeText("line one\r\nline two\n\tindented", { multiline: true })).toBe("line one\nline two\n\tindented");
    expect(sanitizeText("line one\r\nline two\n\tindented")).toBe("line one line two indented");
  });

  it("returns an empty string for anything that is not a string", () => {
    for (const value of [null, undefined, 42, {}, ["<b>"]]) expect(sanitizeText(value)).toBe("");
  });
});
