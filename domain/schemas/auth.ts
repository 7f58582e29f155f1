/**
 * The account forms: sign-in, sign-up, forgotten password, new password, first-run set-up, and the staff
 * screen's invitation and access forms. One schema per form, run by the server (which decides) and by the
 * browser (instant messages). Messages are translation keys under `auth` (the spec's Arabic wording,
 * public-site.md §5 and back-office.md §5, lives once in domain/locales).
 */
import { z } from "zod/mini";
import { sanitizeText } from "#domain/sanitize.ts";
import { EmailSchema, fieldErrorsOf, type FieldErrors } from "./shared.ts";

export const PASSWORD_MAX = 128;
export const SIGN_UP_PASSWORD_MIN = 8;
export const SIGN_IN_PASSWORD_MIN = 6;
export const NAME_MAX = 100;

const email = () => EmailSchema({ required: "auth.bothRequired", invalid: "auth.invalidEmail", tooLong: "auth.invalidEmail" });

/** A name or other single-line text, sanitised (public-site.md §5, "Text sanitiser"). */
const sanitizeTextSchema = () => z.transform((value: unknown) => sanitizeText(value));

/** Any submitted value (a missing field arrives as null) as a string; passwords are never trimmed. */
const raw = z.transform((value: unknown) => (typeof value === "string" ? value : ""));

/** Sign-up rules: at least 8, with upper case, lower case and a digit (back-office.md §5, "Auth helpers"). */
const newPassword = () =>
  z.pipe(
    raw,
    z.string().check(
      z.minLength(SIGN_UP_PASSWORD_MIN, "auth.passwordMin8"),
      z.maxLength(PASSWORD_MAX, "auth.passwordTooLong"),
      z.refine((v) => /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v), "auth.passwordComplexity"),
    ),
  );

export const SignInSchema = z.object({
  email: email(),
  password: z.pipe(raw, z.string().check(z.minLength(SIGN_IN_PASSWORD_MIN, "auth.passwordRequired"), z.maxLength(PASSWORD_MAX, "auth.passwordTooLong"))),
});

export const SignUpSchema = z.object({
  fullName: z.pipe(sanitizeTextSchema(), z.string().check(z.maxLength(NAME_MAX, "auth.nameTooLong"))),
  email: email(),
  password: newPassword(),
});

export const ForgotPasswordSchema = z.object({ email: email() });

export const NewPasswordSchema = z
  .object({
    token: z.pipe(raw, z.string().check(z.minLength(1, "auth.linkInvalid"), z.maxLength(512, "auth.linkInvalid"))),
    password: newPassword(),
    confirm: raw,
  })
  .check(z.refine((v) => v.password === v.confirm, { message: "auth.passwordsDiffer", path: ["confirm"] }));

export const SetupSchema = z.object({
  token: z.pipe(raw, z.string().check(z.minLength(1, "auth.linkInvalid"), z.maxLength(512, "auth.linkInvalid"))),
  fullName: z.pipe(sanitizeTextSchema(), z.string().check(z.minLength(1, "auth.nameRequired"), z.maxLength(NAME_MAX, "auth.nameTooLong"))),
  email: email(),
  password: newPassword(),
});

/** A checkbox group arrives as several values of one name. */
const list = z.transform((value: unknown) =>
  (Array.isArray(value) ? value : value == null || value === "" ? [] : [value]).filter((v): v is string => typeof v === "string"),
);

/** Roles and permissions are checked against server/auth/permissions.server.ts by the server, which owns their names. */
export const InviteSchema = z.object({
  email: EmailSchema({ required: "auth.invalidEmail", invalid: "auth.invalidEmail", tooLong: "auth.invalidEmail" }),
  fullName: z.pipe(sanitizeTextSchema(), z.string().check(z.maxLength(NAME_MAX, "auth.nameTooLong"))),
  role: z.pipe(raw, z.string().check(z.minLength(1, "staff.roleRequired"), z.maxLength(20, "staff.roleRequired"))),
  permissions: z.pipe(list, z.array(z.string()).check(z.maxLength(20, "staff.invalidPermission"))),
});

export const AccessSchema = z.object({
  userId: z.pipe(raw, z.string().check(z.minLength(1, "staff.unknownUser"), z.maxLength(100, "staff.unknownUser"))),
  role: z.pipe(raw, z.string().check(z.minLength(1, "staff.roleRequired"), z.maxLength(20, "staff.roleRequired"))),
  permissions: z.pipe(list, z.array(z.string()).check(z.maxLength(20, "staff.invalidPermission"))),
});

export const UserIdSchema = z.object({ userId: z.pipe(raw, z.string().check(z.minLength(1, "staff.unknownUser"), z.maxLength(100, "staff.unknownUser"))) });

/** The schema's input from submitted form data; repeated fields (checkboxes) become lists. */
export function formValues(form: FormData, fields: readonly string[], lists: readonly string[] = []): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const f of fields) values[f] = lists.includes(f) ? form.getAll(f) : form.get(f);
  return values;
}

/** Parses with one of the schemas above: the value, or the first message of each field. */
export function validate<S extends z.ZodMiniType>(schema: S, values: unknown): { ok: true; data: z.output<S> } | { ok: false; errors: FieldErrors } {
  const result = z.safeParse(schema, values);
  return result.success ? { ok: true, data: result.data } : { ok: false, errors: fieldErrorsOf(result.error) };
}

/**
 * Why an account request failed, as a stable code (the error catalogue of public-site.md §8). The server
 * answers with the code; the page shows the message of the code, never branches on text.
 */
export const AUTH_ERRORS = {
  INVALID_CREDENTIALS: { status: 401, message: "auth.invalidCredentials" },
  EMAIL_NOT_CONFIRMED: { status: 403, message: "auth.emailNotConfirmed" },
  TOO_MANY_REQUESTS: { status: 429, message: "auth.tooManyRequests" },
  SERVICE_UNAVAILABLE: { status: 503, message: "auth.serviceUnavailable" },
  ALREADY_REGISTERED: { status: 409, message: "auth.alreadyRegistered" },
  INVALID_EMAIL: { status: 400, message: "auth.invalidEmail" },
  ACCOUNT_DISABLED: { status: 403, message: "auth.accountDisabled" },
  INVALID_TOKEN: { status: 400, message: "auth.linkInvalid" },
  FORBIDDEN: { status: 403, message: "auth.forbiddenOrigin" },
  FAILED: { status: 400, message: "auth.failed" },
  /** The post was not a readable form, or was over the account forms' limit (server/http/form-action.server.ts). */
  BAD_REQUEST: { status: 400, message: "auth.failed" },
  BODY_TOO_LARGE: { status: 413, message: "auth.failed" },
} as const;
export type AuthErrorCode = keyof typeof AUTH_ERRORS;

/** An account form's answer code: an AuthErrorCode, or a refusal told field by field (checkForm's REQUIRED, INVALID). */
export type AccountFormError = AuthErrorCode | "REQUIRED" | "INVALID";

/** Toast title and text of a failed sign-in or sign-up (public-site.md §8). */
export function authErrorText(code: AuthErrorCode, form: "signIn" | "signUp" | "other"): { title: string; message: string } {
  if (code === "SERVICE_UNAVAILABLE") return { title: "auth.connectionErrorTitle", message: AUTH_ERRORS[code].message };
  const title = form === "signUp" ? "auth.signUpFailedTitle" : form === "signIn" ? "auth.signInFailedTitle" : "auth.errorTitle";
  if (code === "FAILED") return { title, message: form === "signUp" ? "auth.signUpFailed" : form === "signIn" ? "auth.signInFailed" : "auth.failed" };
  return { title, message: AUTH_ERRORS[code].message };
}
