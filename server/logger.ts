import pino from "pino";

/**
 * JSON-lines logging. Field names that could carry credentials are redacted wherever they appear, so a
 * careless `log.info({ body })` cannot leak a password or a token.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: undefined,
  redact: {
    paths: [
      "password",
      "*.password",
      "*.*.password",
      "token",
      "*.token",
      "secret",
      "*.secret",
      "apiKey",
      "*.apiKey",
      "headers.cookie",
      "headers.authorization",
      "*.headers.cookie",
      "*.headers.authorization",
      "cookie",
      "authorization",
    ],
    censor: "[redacted]",
  },
});

export type Logger = typeof logger;
