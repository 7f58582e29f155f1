import { describe, expect, it } from "vitest";
import ar from "./ar/common.json";
import fr from "./fr/common.json";
import en from "./en/common.json";

function keys(node: unknown, prefix = ""): string[] {
  if (typeof node !== "object" || node === null) return [prefix];
  return Object.entries(node).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe("translation files", () => {
  it("have the same keys in ar, fr and en, none empty", () => {
    const arKeys = keys(ar).sort();
    expect(keys(fr).sort()).toEqual(arKeys);
    expect(keys(en).sort()).toEqual(arKeys);
    for (const lang of [ar, fr, en]) {
      for (const key of arKeys) {
        const value = key.split(".").reduce<unknown>((n, p) => (n as Record<string, unknown>)[p], lang);
        expect(typeof value === "string" && value.trim().length > 0, key).toBe(true);
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
