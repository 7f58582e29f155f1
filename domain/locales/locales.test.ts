import { describe, expect, it } from "vitest";
import ar from "./ar/common.json";
import fr from "./fr/common.json";
import en from "./en/common.json";
import { pluralCategoriesOf, pluralCategory, pluralSuffixOf, type PluralCategory } from "#domain/plural.ts";
import type { Language } from "#domain/language.ts";

const FILES: Record<Language, unknown> = { ar, fr, en };

function keys(node: unknown, prefix = ""): string[] {
  if (typeof node !== "object" || node === null) return [prefix];
  return Object.entries(node).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

const valueOf = (file: unknown, key: string) => key.split(".").reduce<unknown>((n, p) => (n as Record<string, unknown>)[p], file);

/** A counted key's forms stand for the key once ("detail.views_one" → "detail.views#counted"), others as themselves. */
const shape = (key: string) => {
  const suffix = pluralSuffixOf(key);
  return suffix ? `${key.slice(0, -suffix.length - 1)}#counted` : key;
};

/** The counted keys of a file, each with the categories it has forms for. */
function countedKeys(file: unknown): Map<string, PluralCategory[]> {
  const found = new Map<string, PluralCategory[]>();
  for (const key of keys(file)) {
    const suffix = pluralSuffixOf(key);
    if (!suffix) continue;
    const base = key.slice(0, -suffix.length - 1);
    found.set(base, [...(found.get(base) ?? []), suffix]);
  }
  return found;
}

/** Categories that more than one whole number falls into (French "one" is 0 and 1): their form must show the number. */
function sharedCategories(lang: Language): Set<PluralCategory> {
  const seen = new Map<PluralCategory, number>();
  for (const n of [...Array.from({ length: 1200 }, (_, i) => i), 1_000_000, 2_000_000]) {
    const c = pluralCategory(lang, n);
    seen.set(c, (seen.get(c) ?? 0) + 1);
  }
  return new Set([...seen].filter(([, times]) => times > 1).map(([c]) => c));
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|\{(\w+)\}/g)].map((m) => m[1] ?? m[2]).sort();

describe("translation files", () => {
  it("have the same keys in ar, fr and en (a counted key once, whatever its forms), none empty", () => {
    const arShapes = [...new Set(keys(ar).map(shape))].sort();
    expect([...new Set(keys(fr).map(shape))].sort()).toEqual(arShapes);
    expect([...new Set(keys(en).map(shape))].sort()).toEqual(arShapes);
    for (const [lang, file] of Object.entries(FILES)) {
      for (const key of keys(file)) {
        const value = valueOf(file, key);
        expect(typeof value === "string" && value.trim().length > 0, `${lang} ${key}`).toBe(true);
      }
    }
  });

  it("give every counted key exactly the plural forms Intl.PluralRules has for its language", () => {
    expect(pluralCategoriesOf("ar")).toEqual(["zero", "one", "two", "few", "many", "other"]);
    expect(pluralCategoriesOf("en")).toEqual(["one", "other"]);
    for (const [lang, file] of Object.entries(FILES) as [Language, unknown][]) {
      const wanted = pluralCategoriesOf(lang);
      const counted = countedKeys(file);
      expect(counted.size, lang).toBeGreaterThan(0);
      for (const [base, forms] of counted) expect([...forms].sort(), `${lang} ${base}`).toEqual([...wanted].sort());
    }
  });

  it("write {{count}} only in counted forms, and in every form more than one number shares", () => {
    for (const [lang, file] of Object.entries(FILES) as [Language, unknown][]) {
      const shared = sharedCategories(lang);
      for (const key of keys(file)) {
        const text = valueOf(file, key) as string;
        const suffix = pluralSuffixOf(key);
        if (!suffix) expect(text, `${lang} ${key}: a number no word agrees with is {{n}}, a counted one needs forms`).not.toMatch(/\{\{\s*count\s*\}\}/);
        else if (shared.has(suffix)) expect(text, `${lang} ${key}`).toMatch(/\{\{\s*count\s*\}\}/);
      }
    }
  });

  it("use the same placeholders in every language", () => {
    for (const key of keys(ar)) {
      if (pluralSuffixOf(key)) continue;
      const want = placeholders(valueOf(ar, key) as string);
      expect(placeholders(valueOf(fr, key) as string), `fr ${key}`).toEqual(want);
      expect(placeholders(valueOf(en, key) as string), `en ${key}`).toEqual(want);
    }
    // A counted key's forms may leave the number out ("مشاهدتان"), never another value.
    for (const [lang, file] of Object.entries(FILES) as [Language, unknown][]) {
      for (const [base, forms] of countedKeys(file)) {
        const others = new Set(forms.flatMap((f) => placeholders(valueOf(file, `${base}_${f}`) as string).filter((p) => p !== "count")));
        for (const f of forms) {
          const own = placeholders(valueOf(file, `${base}_${f}`) as string).filter((p) => p !== "count");
          expect(own, `${lang} ${base}_${f}`).toEqual([...others].sort());
        }
      }
    }
  });

  it("cover navigation, footer, admin labels, auth, contact form, program types and social feed", () => {
    for (const section of ["nav", "footer", "admin", "auth", "contact", "programTypes", "social"]) expect(ar).toHaveProperty(section);
  });

  it("carry the spec's Arabic messages verbatim", () => {
    expect(ar.auth.invalidEmail).toBe("البريد الإلكتروني غير صحيح");
    expect(ar.auth.passwordMin8).toBe("كلمة المرور يجب أن تكون 8 أحرف على الأقل");
    expect(ar.auth.tooManyRequests).toBe("محاولات كثيرة جداً. يرجى المحاولة لاحقاً");
    expect(ar.admin.confirmDelete).toBe("هل أنت متأكد من حذف هذا العنصر؟ لا يمكن التراجع عن هذا الإجراء.");
    expect(en.contact.requiredText).toBe("Required fields: please fill in all fields to send your message");
  });
});
