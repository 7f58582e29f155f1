import { describe, expect, it } from "vitest";
import ar from "#domain/locales/ar/common.json" with { type: "json" };
import { AUTH_ERRORS, authErrorText, formValues, NewPasswordSchema, SignInSchema, SignUpSchema, validate } from "./auth.ts";

const text = (key: string | undefined) => key?.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], ar);

describe("account forms (public-site.md §5, back-office.md §5)", () => {
  it("sanitises and lower-cases the e-mail", () => {
    const r = validate(SignInSchema, { email: "  Sidi@Example.ORG ", password: "secret1" });
    expect(r).toEqual({ ok: true, data: { email: "sidi@example.org", password: "secret1" } });
  });

  it("gives the spec's sign-up messages, in Arabic, word for word", () => {
    const bad = validate(SignUpSchema, { fullName: "", email: "not-an-email", password: "short" });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(text(bad.errors.email)).toBe("البريد الإلكتروني غير صحيح");
    expect(text(bad.errors.password)).toBe("كلمة المرور يجب أن تكون 8 أحرف على الأقل");
    const weak = validate(SignUpSchema, { fullName: "", email: "a@b.co", password: "alllowercase1" });
    expect(!weak.ok && text(weak.errors.password)).toBe("كلمة المرور يجب أن تحتوي على أحرف كبيرة وصغيرة وأرقام");
    expect(validate(SignUpSchema, { fullName: "", email: "a@b.co", password: "Passw0rd" }).ok).toBe(true);
  });

  it("gives the spec's sign-in messages: password at least 6, both fields required", () => {
    const short = validate(SignInSchema, { email: "a@b.co", password: "12345" });
    expect(!short.ok && text(short.errors.password)).toBe("كلمة المرور مطلوبة");
    const empty = validate(SignInSchema, formValues(new FormData(), ["email", "password"]));
    expect(!empty.ok && text(empty.errors.email)).toBe("البريد الإلكتروني وكلمة المرور مطلوبان");
    expect(validate(SignInSchema, { email: "a@b.co", password: "123456" }).ok).toBe(true);
  });

  it("does not trim or sanitise passwords", () => {
    const r = validate(SignInSchema, { email: "a@b.co", password: " <b>pass</b> " });
    expect(r.ok && r.data.password).toBe(" <b>pass</b> ");
  });

  it("asks for the same new password twice", () => {
    const r = validate(NewPasswordSchema, { token: "t", password: "Passw0rdX", confirm: "Passw0rdY" });
    expect(!r.ok && r.errors.confirm).toBe("auth.passwordsDiffer");
  });

  it("maps every error code to the catalogue's messages (public-site.md §8)", () => {
    expect(text(authErrorText("INVALID_CREDENTIALS", "signIn").message)).toBe("بيانات تسجيل الدخول غير صحيحة");
    expect(text(authErrorText("INVALID_CREDENTIALS", "signIn").title)).toBe("فشل في تسجيل الدخول");
    expect(text(authErrorText("EMAIL_NOT_CONFIRMED", "signIn").message)).toBe("يرجى تأكيد البريد الإلكتروني");
    expect(text(authErrorText("TOO_MANY_REQUESTS", "signIn").message)).toBe("محاولات كثيرة جداً. يرجى المحاولة لاحقاً");
    expect(text(authErrorText("FAILED", "signIn").message)).toBe("فشل في تسجيل الدخول");
    expect(text(authErrorText("ALREADY_REGISTERED", "signUp").message)).toBe("هذا البريد الإلكتروني مسجل مسبقاً");
    expect(text(authErrorText("ALREADY_REGISTERED", "signUp").title)).toBe("فشل في التسجيل");
    expect(text(authErrorText("FAILED", "signUp").message)).toBe("فشل في التسجيل");
    expect(text(authErrorText("SERVICE_UNAVAILABLE", "signIn").title)).toBe("خطأ في الاتصال");
    expect(text(authErrorText("SERVICE_UNAVAILABLE", "signIn").message)).toBe("خدمة المصادقة غير متاحة مؤقتاً. يرجى المحاولة لاحقاً.");
    for (const code of Object.keys(AUTH_ERRORS) as (keyof typeof AUTH_ERRORS)[]) {
      for (const form of ["signIn", "signUp", "other"] as const) {
        const { title, message } = authErrorText(code, form);
        expect(typeof text(title), `${code} ${title}`).toBe("string");
        expect(typeof text(message), `${code} ${message}`).toBe("string");
      }
    }
  });
});
