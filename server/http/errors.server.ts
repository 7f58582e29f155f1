/**
 * The error model (docs/api-errors.md): every error a client sees is an AppError, carrying the HTTP status,
 * a stable code to branch on, the message a person reads (the spec's words: Arabic where the endpoint
 * answers in Arabic) and, for a refused input, one message per field. Every API answers such an error with
 * the one JSON shape `{ error: { code, message, fields? } }` (errorAnswer, errorResponse); the HTML form
 * actions turn the same errors into their form's answer (server/http/form-action.server.ts). Anything else
 * thrown is a fault of ours: a logged 500 INTERNAL_ERROR whose message reveals nothing, except a database that
 * does not answer: 503 DATABASE_UNAVAILABLE with Retry-After (decision 0135).
 *
 * A field's message may be given as a translation key (domain/locales, `newsroom.v.title5`): a form shows
 * it in the reader's language, an API answers it in Arabic (the back-office's language, back-office.md §1).
 */
import { CodedError, type ErrorContext, type ErrorLevel, levelOf } from "#server/errors.server.ts";
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "#server/db/unavailable.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { translate } from "./i18n.server.ts";

/** Field name → the message shown beside that field (or its translation key). */
export type ErrorFields = Record<string, string>;

/** The one JSON error shape of every API. */
export type ErrorBody = { error: { code: string; message: string; fields?: ErrorFields } };

export type AppErrorOptions = {
  fields?: ErrorFields;
  cause?: unknown;
  headers?: Record<string, string>;
  /** The log level when it is not the status's (levelOfStatus). */
  level?: ErrorLevel;
  context?: ErrorContext;
};

/**
 * A status's log level: a 5xx is ours or a dependency's (error); a refused sign-in, permission or rate is
 * someone knocking (warn); any other 4xx is the client's own mistake, answered and done (info).
 */
export function levelOfStatus(status: number): ErrorLevel {
  if (status >= 500) return "error";
  return status === 401 || status === 403 || status === 429 ? "warn" : "info";
}

/** An error a client sees: its status, stable code, message and, for refused input, the fields' messages. */
export class AppError extends CodedError {
  readonly fields?: ErrorFields;
  /** Headers the answer carries besides Cache-Control (Retry-After of a 429). */
  readonly headers?: Record<string, string>;
  constructor(
    readonly status: number,
    code: string,
    message: string,
    { fields, cause, headers, level = levelOfStatus(status), context }: AppErrorOptions = {},
  ) {
    super(code, message, { level, context, cause });
    if (fields && Object.keys(fields).length) this.fields = fields;
    if (headers) this.headers = headers;
  }
}

/** A request the endpoint cannot read (a bad query string, a body that is not JSON): 400. */
export class BadRequestError extends AppError {
  constructor(code: string, message: string, options?: AppErrorOptions) {
    super(400, code, message, options);
  }
}

/** Input that was read but refused, one message per field: 422 by default, 400 where an endpoint answers so. */
export class ValidationError extends AppError {
  constructor(
    message: string,
    fields: ErrorFields = {},
    { status = 422, code = "VALIDATION", cause }: { status?: 400 | 422; code?: string; cause?: unknown } = {},
  ) {
    super(status, code, message, { fields, cause });
  }
}

/** No signed-in account where one is needed: 401. */
export class UnauthorizedError extends AppError {
  constructor(message: string, code = "UNAUTHORIZED") {
    super(401, code, message);
  }
}

/** A signed-in account without the permission: 403. */
export class ForbiddenError extends AppError {
  constructor(message: string, code = "FORBIDDEN") {
    super(403, code, message);
  }
}

/** Nothing at that id or path: 404. */
export class NotFoundError extends AppError {
  constructor(message: string, code = "NOT_FOUND") {
    super(404, code, message);
  }
}

/** The write lost a race (someone else saved first) or clashes with what exists: 409. */
export class ConflictError extends AppError {
  constructor(message: string, code = "CONFLICT", options?: AppErrorOptions) {
    super(409, code, message, options);
  }
}

/** A body over its route's limit: 413. */
export class TooLargeError extends AppError {
  constructor(message: string, code = "BODY_TOO_LARGE") {
    super(413, code, message);
  }
}

/** Too many requests from one client: 429, with Retry-After in seconds when known. */
export class RateLimitedError extends AppError {
  constructor(message: string, { code = "RATE_LIMITED", retryAfterSeconds }: { code?: string; retryAfterSeconds?: number } = {}) {
    super(429, code, message, retryAfterSeconds === undefined ? {} : { headers: { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
  }
}

/** A service we depend on (the video library) failed or answered badly: 502. */
export class UpstreamError extends AppError {
  constructor(code: string, message: string, options?: AppErrorOptions) {
    super(502, code, message, options);
  }
}

/** We cannot answer now (a search that took too long, a database being restored): 503. */
export class UnavailableError extends AppError {
  constructor(code: string, message: string, options?: AppErrorOptions) {
    super(503, code, message, options);
  }
}

/**
 * The database does not answer now (down, silent, out of connections, a statement past its time-out): 503 with
 * Retry-After, which errorAnswer makes of any such error (server/db/unavailable.server.ts, decision 0135).
 */
export class DatabaseUnavailableError extends UnavailableError {
  constructor(options: AppErrorOptions = {}) {
    // Not a fault of ours, and the client is told when to come back: a warning, as it was before it had a level.
    super("DATABASE_UNAVAILABLE", "errors.databaseUnavailable", {
      level: "warn",
      ...options,
      headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS), ...options.headers },
    });
  }
}

/** A method the endpoint does not answer: 405, with Allow. */
export class MethodNotAllowedError extends AppError {
  constructor(allowed: readonly string[]) {
    super(405, "METHOD_NOT_ALLOWED", `Use ${allowed.length > 1 ? `${allowed.slice(0, -1).join(", ")} or ${allowed.at(-1)}` : allowed[0]}`, {
      headers: { Allow: allowed.join(", ") },
    });
  }
}

/**
 * A translation key as Arabic text, with `{{name}}` placeholders filled in; any other text as it is (a key
 * that names no string is returned unchanged).
 */
export function arabic(key: string, values: Record<string, string | number> = {}): string {
  return translate("ar", key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));
}

/** Each field's message (or translation key) in Arabic. */
export function arabicFields(fields: ErrorFields): ErrorFields {
  return Object.fromEntries(Object.entries(fields).map(([field, message]) => [field, arabic(message)]));
}

export const INTERNAL_ERROR_MESSAGE = "The request could not be completed. Please try again later.";

export type ErrorAnswer = { status: number; body: ErrorBody; headers: Record<string, string> };

/**
 * Any thrown value as the API's answer: an AppError as its status and the one shape (a translation key in
 * its message or fields answered in Arabic); anything else a 500 INTERNAL_ERROR, logged (with `what` the
 * request was doing) at its own level when it has one (server/errors.server.ts), its message revealing nothing.
 * Errors of 5xx status are logged too, at their level, since they are ours or a dependency's.
 */
export function errorAnswer(error: unknown, what = "API request"): ErrorAnswer {
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  // Not a fault of ours: the client is told to come back, as the pages and feeds tell it.
  if (!(error instanceof AppError) && isDatabaseUnavailable(error)) error = new DatabaseUnavailableError({ cause: error });
  if (error instanceof AppError) {
    if (error.status >= 500) logger[error.level]({ err: error, what }, `${what} failed`);
    const body: ErrorBody = { error: { code: error.code, message: arabic(error.message) } };
    if (error.fields) body.error.fields = arabicFields(error.fields);
    return { status: error.status, body, headers: { ...headers, ...error.headers } };
  }
  logger[levelOf(error)]({ err: error, what }, `${what} failed`);
  return { status: 500, body: { error: { code: "INTERNAL_ERROR", message: INTERNAL_ERROR_MESSAGE } }, headers };
}

/** errorAnswer as a Response (no-store). */
export function errorResponse(error: unknown, what?: string): Response {
  const { status, body, headers } = errorAnswer(error, what);
  return Response.json(body, { status, headers });
}

/** Whether a thrown value is a Response (or React Router's `data()`), which a handler passes through. */
export function isThrownResponse(error: unknown): boolean {
  return error instanceof Response || (!!error && typeof error === "object" && "type" in error && error.type === "DataWithResponseInit");
}
