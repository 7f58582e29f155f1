/**
 * The one base of every error the server throws on purpose (issue 41, decision 0141), as `@tryghost/errors`
 * gives Ghost one: a stable `code` to branch on and to search the logs for, the `level` its log line is written
 * at, and `context` (ids, counts, a key: never a credential, never a reader's text) that the logger writes beside
 * the message. The errors a client sees (server/http/errors.server.ts `AppError`) are of this base too, with their
 * HTTP status on top; the internal ones (a store that refused, a mail server away, a backup that cannot be read)
 * stop here.
 *
 * Imports nothing: the configuration, the logger and every driver may throw one.
 */
export type ErrorLevel = "fatal" | "error" | "warn" | "info";

/** What the log line carries beside the message: plain values only. */
export type ErrorContext = Record<string, string | number | boolean | null | undefined>;

export type CodedErrorOptions = { level?: ErrorLevel; context?: ErrorContext; cause?: unknown };

export class CodedError extends Error {
  readonly level: ErrorLevel;
  readonly context: ErrorContext;
  constructor(
    readonly code: string,
    message: string,
    { level = "error", context = {}, cause }: CodedErrorOptions = {},
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.level = level;
    this.context = context;
  }
}

export const isCodedError = (error: unknown): error is CodedError => error instanceof CodedError;

/**
 * The level a line about `error` is written at where errors are logged generically (the API's 500 path, the
 * job worker): a CodedError's own, anything else `fallback` (what that place wrote before: a fault of ours).
 */
export const levelOf = (error: unknown, fallback: ErrorLevel = "error"): ErrorLevel => (isCodedError(error) ? error.level : fallback);
