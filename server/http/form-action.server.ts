/**
 * One way a route action reads an HTML form post and answers a refusal (issue 26). The body is read within
 * its route kind's limit, or a smaller kind's (BODY_LIMITS, server/http/request-body.server.ts); then any
 * AppError (server/http/errors.server.ts) becomes the one failure answer of domain/form-answer.ts, with the
 * error's status and headers: a refused body (413, or 400 when unreadable), a validation failure
 * (checkForm: 400, REQUIRED or INVALID with the fields' messages), a conflict (409), a rate limit (429 with
 * Retry-After, and `retryAfterSeconds` for the page). Whatever the route echoes (what was typed, its own
 * keys) goes into every failure. Anything else thrown goes on: redirects, and the error page's 500.
 * Every page action reads its body here, the account forms and the newsletter's token pages included.
 */
import { data } from "react-router";
import { z } from "zod/mini";
import type { FormAnswer, FormFailure } from "#domain/form-answer.ts";
import { fieldErrorsOf, hasMissingField } from "#domain/schemas/shared.ts";
import { logger } from "#server/ops/logger.server.ts";
import { AppError, ValidationError } from "./errors.server.ts";
import { BODY_LIMITS, readFormData, RequestBodyError, type BodyKind } from "./request-body.server.ts";

type AnyAnswer = FormAnswer<string, string>;
type Answered<A> = ReturnType<typeof data<A>>;

/** The failure's code: an AppError's own, except that a body unreadable for any reason is BAD_REQUEST. */
function codeOf(error: AppError): string {
  if (error instanceof RequestBodyError) return error.code === "BODY_TOO_LARGE" ? "BODY_TOO_LARGE" : "BAD_REQUEST";
  return error.code;
}

/** An AppError as the form's failure answer (its status and headers), with what the route adds. */
export function formFailure<A extends AnyAnswer>(
  error: AppError,
  extra?: Omit<Partial<Extract<A, { ok: false }>>, "ok">,
  headers?: Record<string, string>,
): Answered<A> {
  const retryAfter = Number(error.headers?.["Retry-After"]);
  const answer: FormFailure<string, string> = { ok: false, formError: codeOf(error) };
  if (error.fields) answer.fields = error.fields;
  if (retryAfter > 0) answer.retryAfterSeconds = retryAfter;
  return data({ ...answer, ...extra } as unknown as A, { status: error.status, headers: { ...error.headers, ...headers } });
}

/** The form went through (200), with what the route adds. */
export function formSuccess<A extends AnyAnswer>(extra: Omit<Extract<A, { ok: true }>, "ok"> | Record<string, never> = {}): Answered<A> {
  return data({ ok: true, ...extra } as unknown as A);
}

/**
 * Parses with a form's schema: the value, or a ValidationError (400) with the first message of each field,
 * coded REQUIRED when a field was left empty and INVALID otherwise.
 */
export function checkForm<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const result = z.safeParse(schema, input);
  if (result.success) return result.data;
  throw new ValidationError("Some fields of the form were refused.", fieldErrorsOf(result.error) as Record<string, string>, {
    status: 400,
    code: hasMissingField(result.error) ? "REQUIRED" : "INVALID",
  });
}

/**
 * What to throw when doing what the form asked failed on our side or a service's: an AppError as it is, and
 * anything else logged (`what` and `context`) and answered `status` (500) FAILED; the input was fine.
 */
export function failedWhile(what: string, error: unknown, context: Record<string, unknown> = {}, status = 500): AppError {
  if (error instanceof AppError) {
    if (error.status >= 500) logger.warn({ err: error, ...context }, what);
    return error;
  }
  logger.error({ err: error, ...context }, what);
  return new AppError(status, "FAILED", "The request could not be completed.", { cause: error });
}

export type FormActionOptions<A extends AnyAnswer> = {
  /** A limit below the route kind's own: another kind's (a few hidden fields: "account"), or the form's own in bytes. */
  limit?: BodyKind | number;
  /** What every failure answer carries besides; `form` is null when the body could not be read. */
  echo?: (form: FormData | null) => Omit<Partial<Extract<A, { ok: false }>>, "ok">;
  /** Headers every failure answer carries besides its error's (a page that must never be stored: Cache-Control). */
  headers?: Record<string, string>;
};

/**
 * Reads the form and runs `handle` with it; a refusal thrown on the way (an AppError) is answered as the
 * form's failure. `A` is the page's answer type.
 */
export async function formAction<A extends AnyAnswer>(
  request: Request,
  options: FormActionOptions<A>,
  handle: (form: FormData) => Response | Answered<A> | Promise<Response | Answered<A>>,
): Promise<Response | Answered<A>> {
  let form: FormData | null = null;
  try {
    form = await readFormData(request, typeof options.limit === "string" ? BODY_LIMITS[options.limit] : options.limit);
    return await handle(form);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return formFailure<A>(error, options.echo?.(form), options.headers);
  }
}
