/**
 * A real SMTP receiver for tests (the smtp-server package): messages sent to it are parsed and kept, so a
 * test can read the e-mail a feature sent and follow its links.
 */
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";

export type ReceivedMail = { from: string; to: string[]; raw: string; subject: string; text: string; links: string[] };

function decodeQuotedPrintable(s: string) {
  return s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16)));
}

/** Decodes the parts of a nodemailer message well enough to read its text and links. */
export function parseMail(raw: string): { subject: string; text: string; links: string[] } {
  const subjectLine = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? "";
  const subject = subjectLine
    .replace(/\r?\n[ \t]/g, "")
    .replace(/=\?utf-8\?([BQ])\?([^?]*)\?=/gi, (_, enc, data) =>
      enc.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : Buffer.from(decodeQuotedPrintable(data.replace(/_/g, " ")), "latin1").toString("utf8"),
    )
    .replace(/\s+/g, " ")
    .trim();
  let text = "";
  const parts = raw.split(/\r?\n--[^\r\n]+/);
  for (const part of parts.length > 1 ? parts : [raw]) {
    const headerEnd = part.search(/\r?\n\r?\n/);
    if (headerEnd < 0) continue;
    const headers = part.slice(0, headerEnd);
    const body = part.slice(headerEnd).trim();
    if (/Content-Transfer-Encoding: base64/i.test(headers)) text += Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8") + "\n";
    else if (/Content-Transfer-Encoding: quoted-printable/i.test(headers)) text += Buffer.from(decodeQuotedPrintable(body), "latin1").toString("utf8") + "\n";
    else text += body + "\n";
  }
  const links = [...new Set(text.match(/https?:\/\/[^\s"'<>)]+/g) ?? [])].map((l) => l.replace(/&amp;/g, "&"));
  return { subject, text, links };
}

export async function startSmtpReceiver() {
  const messages: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMail(raw),
        });
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Resolves with the first message to `to` (waiting for it up to `timeoutMs`). */
    async waitFor(to: string, timeoutMs = 15_000): Promise<ReceivedMail> {
      const started = Date.now();
      for (;;) {
        const found = messages.find((m) => m.to.includes(to.toLowerCase()) || m.to.includes(to));
        if (found) return found;
        if (Date.now() - started > timeoutMs) throw new Error(`no e-mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
