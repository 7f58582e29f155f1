/**
 * The one answer a route action gives a form post (issue 26), whatever the form: `ok`, and when the post is
 * refused, a code for the form as a whole (`formError`), one message per refused field (`fields`,
 * translation keys) and what was typed (`values`, to show the form again as it was, JavaScript or not).
 * The server builds it with server/http/form-action.server.ts; the forms toolkit (app/components/forms/) and
 * the pages read it. A route adds beside it what its page needs (the opinion page's `intent`, the sign-in
 * page's `mode`, the editor's `conflict`).
 */
import type { FieldErrors } from "#domain/schemas/shared.ts";

/**
 * The codes every form shares (an AppError's code, server/http/errors.server.ts). A route may answer codes
 * of its own beside them (the account forms' AuthErrorCode).
 */
export type FormErrorCode =
  /** The body is over the route's limit (413). */
  | "BODY_TOO_LARGE"
  /** The body is not a readable form, or the post asks for something the route does not do (400). */
  | "BAD_REQUEST"
  /** At least one field was left empty (400; the spec's "required fields" case). */
  | "REQUIRED"
  /** Fields were filled in but refused (400). */
  | "INVALID"
  | "NOT_FOUND"
  /** Someone else saved first (409). */
  | "CONFLICT"
  /** Too many posts from one client: `retryAfterSeconds` says when to come back (429). */
  | "RATE_LIMITED"
  /** Our fault or a service's: the input was fine (5xx). */
  | "FAILED";

export type FormSuccess = { ok: true };

export type FormFailure<F extends string = string, C extends string = FormErrorCode> = {
  ok: false;
  formError?: C;
  fields?: FieldErrors<F>;
  values?: Partial<Record<F, string>>;
  retryAfterSeconds?: number;
};

export type FormAnswer<F extends string = string, C extends string = FormErrorCode> = FormSuccess | FormFailure<F, C>;

/** The field messages of an answer, if it has any. */
export function fieldsOf<F extends string>(answer: FormAnswer<F, string> | null | undefined): FieldErrors<F> | undefined {
  return answer && !answer.ok ? answer.fields : undefined;
}

/** The code of a refused answer, if it has one. */
export function formErrorOf<C extends string>(answer: FormAnswer<string, C> | null | undefined): C | undefined {
  return answer && !answer.ok ? answer.formError : undefined;
}

/** The code of a refused answer that concerns the form as a whole: REQUIRED and INVALID are told field by field. */
export function formLevelError<C extends string>(answer: FormAnswer<string, C> | null | undefined): C | undefined {
  const code = formErrorOf(answer);
  return code === "REQUIRED" || code === "INVALID" ? undefined : code;
}
