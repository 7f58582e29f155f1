import pino, { type DestinationStream, type LoggerOptions } from "pino";
import { currentRequestId } from "./request-context.server.ts";

/**
 * JSON-lines logging. Credentials are kept out two ways, so a careless `log.info({ body })` or a logged
 * request cannot leak them:
 *  - by name: fields that hold them (password, token, secret, cookie, authorization, an e-mail's links…)
 *    are replaced wherever they appear, up to two levels down;
 *  - by shape: in every other string field, and in a logged error's message and stack, the values of
 *    query parameters such as `token=`, the password of a `scheme://user:password@host` address and a
 *    `Bearer` credential are replaced.
 * A message we write is left as written (one taken from a logged error is scrubbed): it is ours, not
 * data, and the first-run set-up link (server/auth/setup.server.ts) is printed there on purpose, for whoever
 * can read the log.
 *
 * A line written while a request is being handled carries its `requestId` (server/ops/request-context.server.ts),
 * however deep in a loader or a query it was written: the id the reader sees as the error screen's number.
 */
const CENSOR = "[redacted]";

const SECRET_FIELDS = [
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "accessToken",
  "refreshToken",
  "idToken",
  "secret",
  "apiKey",
  "cookie",
  "authorization",
  "link",
  "links",
];

const QUERY_SECRET =
  /([?&;#](?:token|access_token|refresh_token|id_token|code|secret|password|key|api_?key|signature|sig|x-amz-signature|x-amz-credential|x-amz-security-token)=)[^&#\s"'<>]+/gi;
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*:)[^\s/?#@]+@/gi;
const BEARER = /\b(bearer\s+)[\w.~+/=-]+/gi;

/** A string with credential-shaped values replaced (see above). */
export function scrubSecrets(text: string): string {
  return text.replace(QUERY_SECRET, `$1${CENSOR}`).replace(URL_PASSWORD, `$1${CENSOR}@`).replace(BEARER, `$1${CENSOR}`);
}

/** A copy with every string scrubbed; the caller's object is not changed. Bounded in depth and breadth. */
function scrubDeep(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrubSecrets(value);
  if (depth >= 6 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => scrubDeep(v, depth + 1));
  // Errors, dates, buffers, URLs…: only plain objects are walked (errors have their own serializer below).
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value instanceof URL ? scrubSecrets(value.href) : value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrubDeep(v, depth + 1);
  return out;
}

/**
 * pino's error serializer (type, message, stack, own fields), scrubbed: messages quote URLs and addresses. A
 * CodedError's own fields are its `code`, `level` and `context` (server/errors.server.ts), so a line about one
 * reads `err: { type, code, level, message, context, stack }`, its context scrubbed by shape here and by name by
 * `redact` (up to `err.context.*`). Where a line's level follows the error's: `levelOf` there.
 */
function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown;
  if (serialized === null || typeof serialized !== "object") return scrubDeep(serialized);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(serialized)) out[k] = scrubDeep(v, 1);
  return out;
}

export const loggerOptions: LoggerOptions = {
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: undefined,
  // A field the line itself sets wins (the access log names the request it ends, outside its context).
  mixin: () => {
    const requestId = currentRequestId();
    return requestId ? { requestId } : {};
  },
  formatters: { log: (object) => scrubDeep(object) as Record<string, unknown> },
  hooks: {
    // An error logged without a message lends pino its own message, which would bypass the serializer.
    logMethod(args, method) {
      const [first] = args as unknown[];
      const error = first instanceof Error ? first : (first as { err?: unknown } | null)?.err;
      if (args.length === 1 && error instanceof Error) return method.call(this, first as object, scrubSecrets(error.message));
      return method.apply(this, args);
    },
  },
  serializers: { err: serializeError },
  redact: {
    paths: [...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]), 'headers["set-cookie"]', '*.headers["set-cookie"]', '*.*.headers["set-cookie"]'],
    censor: CENSOR,
  },
};

/** A logger with this module's rules, writing to `destination` (tests capture the lines this way). */
export function createLogger(destination?: DestinationStream) {
  return destination ? pino(loggerOptions, destination) : pino(loggerOptions);
}

export const logger = createLogger();

export type Logger = typeof logger;
