/**
 * Outgoing e-mail. With SMTP_URL set, messages go through nodemailer over SMTP; without it they are written
 * to DATA_DIR/outbox (an .eml file and a .json beside it), so a fresh install can still verify accounts and
 * confirm subscribers: the log says which file holds each message, never its links (they carry the tokens).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { getConfig, type Config } from "#server/config.server.ts";
import { CodedError, type ErrorContext } from "#server/errors.server.ts";
import { logger } from "./logger.server.ts";

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Links the message carries (verification, reset, confirmation): in the outbox's .json, never in a log. */
  links?: string[];
  replyTo?: string;
  /** Extra headers (a newsletter's List-Unsubscribe and List-Unsubscribe-Post). */
  headers?: Record<string, string>;
};

export type SentMail = { id: string; driver: "smtp" | "outbox"; file?: string };

let transport: { key: string; transporter: Transporter } | undefined;
/** Bulk mail (newsletter sends): a pool of NEWSLETTER_SMTP_CONNECTIONS connections kept open between messages. */
let pooled: { key: string; transporter: Transporter } | undefined;

function smtpTransport(config: Config, bulk = false): Transporter {
  const key = config.SMTP_URL ?? "";
  if (bulk) {
    const poolKey = `${key} ${config.NEWSLETTER_SMTP_CONNECTIONS}`;
    if (!pooled || pooled.key !== poolKey) {
      pooled?.transporter.close();
      pooled = {
        key: poolKey,
        transporter: nodemailer.createTransport({ url: key, pool: true, maxConnections: config.NEWSLETTER_SMTP_CONNECTIONS, maxMessages: 1000 }),
      };
    }
    return pooled.transporter;
  }
  if (!transport || transport.key !== key) transport = { key, transporter: nodemailer.createTransport(key) };
  return transport.transporter;
}

/** Closes the bulk pool's connections (a worker stopping, a script ending). */
export function closeBulkMail() {
  pooled?.transporter.close();
  pooled = undefined;
}

/** The mail server refused the message or could not be reached; the context names the message, never its text. */
export class MailError extends CodedError {
  declare readonly code: "MAIL_FAILED";
  constructor(message: string, { cause, context }: { cause?: unknown; context?: ErrorContext } = {}) {
    super("MAIL_FAILED", message, { level: "error", cause, context });
  }
}

/** `bulk`: one of many (a newsletter send): through the pooled transport, logged at debug level only. */
export async function sendMail(message: MailMessage, config: Config = getConfig(), { bulk = false }: { bulk?: boolean } = {}): Promise<SentMail> {
  const envelope = {
    from: config.MAIL_FROM,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    replyTo: message.replyTo,
    headers: message.headers,
  };
  if (config.drivers.mail === "smtp") {
    try {
      const info = await smtpTransport(config, bulk).sendMail(envelope);
      logger[bulk ? "debug" : "info"]({ to: message.to, subject: message.subject, messageId: info.messageId }, "mail sent");
      return { id: String(info.messageId), driver: "smtp" };
    } catch (error) {
      logger.error({ err: error, to: message.to, subject: message.subject }, "mail failed");
      const { code, responseCode } = error as { code?: string; responseCode?: number };
      throw new MailError(`Could not send the e-mail: ${(error as Error).message}`, { cause: error, context: { bulk, smtpCode: code, responseCode } });
    }
  }
  const dir = path.join(config.dataDir, "outbox");
  fs.mkdirSync(dir, { recursive: true });
  const id = `${new Date().toISOString().replace(/[:.]/g, "-")}-${crypto.randomBytes(4).toString("hex")}`;
  const built = await nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }).sendMail(envelope);
  const file = path.join(dir, `${id}.eml`);
  fs.writeFileSync(file, built.message as Buffer);
  fs.writeFileSync(path.join(dir, `${id}.json`), JSON.stringify({ ...message, from: config.MAIL_FROM, date: new Date().toISOString() }, null, 2));
  logger[bulk ? "debug" : "info"]({ to: message.to, subject: message.subject, id, file }, "mail written to outbox (no SMTP_URL set)");
  return { id, driver: "outbox", file };
}

/** The messages in the outbox, newest last (for the set-up screen, scripts and tests). */
export type OutboxMessage = MailMessage & { from: string; date: string };

export function readOutbox(config: Config = getConfig()): OutboxMessage[] {
  const dir = path.join(config.dataDir, "outbox");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as OutboxMessage);
}
