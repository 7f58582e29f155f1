import { describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { EmailSchema, fieldErrorsOf, hasMissingField, PhoneSchema, SlugSchema, TextSchema, UrlSchema, UUID_PATTERN } from "./shared.ts";
import { ContactSchema } from "./contact.ts";

describe("shared patterns (public-site.md §5)", () => {
  it("accepts e-mail addresses with one at-sign, no spaces and a dot in the domain", () => {
    for (const ok of ["a@b.co", "Someone.Name+tag@mail.example.mr", "x@sub.domain.org"]) expect(EmailSchema().safeParse(ok).success, ok).toBe(true);
    for (const bad of ["", "plain", "a@b", "a@@b.co", "a@b@c.co", "a b@c.co", "a@b .co", "@b.co", "a@.co", "a@b.", "a@b..co"]) {
      expect(EmailSchema().safeParse(bad).success, bad).toBe(false);
    }
    expect(EmailSchema().parse("  Someone@Example.ORG ")).toBe("someone@example.org");
    expect(EmailSchema().safeParse(`${"a".repeat(250)}@b.co`).success).toBe(false);
  });

  it("checks phone numbers, URLs and slugs", () => {
    expect(PhoneSchema().safeParse("+222 45 25 00 00").success).toBe(true);
    expect(PhoneSchema().safeParse("(222) 45-25").success).toBe(true);
    expect(PhoneSchema().safeParse("call me").success).toBe(false);
    expect(PhoneSchema().safeParse("+-()").success).toBe(false);
    expect(UrlSchema().safeParse("https://sahara-media.mr/news").success).toBe(true);
    expect(UrlSchema().safeParse("ftp://x.org").success).toBe(false);
    expect(UrlSchema().safeParse("javascript:alert(1)").success).toBe(false);
    expect(SlugSchema().safeParse("the-caravan-2").success).toBe(true);
    for (const bad of ["The-Caravan", "a--b", "-a", "a-", "a b", "قافلة"]) expect(SlugSchema().safeParse(bad).success, bad).toBe(false);
    expect(UUID_PATTERN.test("0b1e3c4d-5f6a-4b7c-8d9e-0f1a2b3c4d5e")).toBe(true);
    expect(UUID_PATTERN.test("0b1e3c4d-5f6a-7b7c-8d9e-0f1a2b3c4d5e")).toBe(false);
  });

  it("cleans free text before checking it, so blanks and control characters alone count as empty", () => {
    const schema = z.object({ name: TextSchema({ max: 10 }) });
    const onlyBlank = schema.safeParse({ name: " \u0000\u202E\t " });
    expect(onlyBlank.success).toBe(false);
    if (!onlyBlank.success) expect(hasMissingField(onlyBlank.error)).toBe(true);
    const tooLong = schema.safeParse({ name: "x".repeat(11) });
    expect(tooLong.success).toBe(false);
    if (!tooLong.success) {
      expect(hasMissingField(tooLong.error)).toBe(false);
      expect(fieldErrorsOf(tooLong.error)).toEqual({ name: "validation.tooLong" });
    }
  });
});

describe("the contact schema", () => {
  const valid = { name: "أحمد", email: "ahmed@example.mr", subject: "سؤال", message: "السلام عليكم\nلدي سؤال." };

  it("accepts a complete message and keeps every field as typed, trimmed", () => {
    const out = ContactSchema.parse({ ...valid, name: " أحمد <ولد> محمد ", message: 'سطر\r\n5 < 6 & "علامات"، أليس كذلك؟' });
    expect(out.name).toBe("أحمد <ولد> محمد");
    expect(out.message).toBe('سطر\n5 < 6 & "علامات"، أليس كذلك؟');
  });

  it("reports an empty field as the required-fields case, with the contact message key", () => {
    for (const field of ["name", "email", "subject", "message"] as const) {
      for (const empty of ["", "   ", null]) {
        const result = ContactSchema.safeParse({ ...valid, [field]: empty });
        expect(result.success).toBe(false);
        if (!result.success) {
          expect(hasMissingField(result.error)).toBe(true);
          expect(fieldErrorsOf(result.error)[field]).toBe("contact.requiredText");
        }
      }
    }
  });

  it("enforces the limits with a message per field", () => {
    const cases = [
      ["name", "x".repeat(101), "contact.nameTooLong"],
      ["subject", "x".repeat(201), "contact.subjectTooLong"],
      ["message", "x".repeat(5001), "contact.messageTooLong"],
      ["email", `${"a".repeat(250)}@b.co`, "contact.emailTooLong"],
      ["email", "not-an-address", "contact.invalidEmail"],
    ] as const;
    for (const [field, value, message] of cases) {
      const result = ContactSchema.safeParse({ ...valid, [field]: value });
      expect(result.success, field).toBe(false);
      if (!result.success) {
        expect(fieldErrorsOf(result.error)[field]).toBe(message);
        expect(hasMissingField(result.error)).toBe(false);
      }
    }
    expect(ContactSchema.safeParse({ ...valid, name: "x".repeat(100), subject: "x".repeat(200), message: "x".repeat(5000) }).success).toBe(true);
  });
});
