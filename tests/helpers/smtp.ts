/**
 * A real SMTP receiver for tests (the smtp-server package): messages sent to it are parsed and kept, so a
 * test can read the e-mail a feature sent and follow its links.
 */
import { SMTPServer } from "smtp-server";
import { simpleParser } from "mailparser";
import type { AddressInfo } from "node:net";

export type ReceivedMail = { from: string; to: string[]; raw: string; subject: string; text: string; html: string; links: string[] };

/** Subject, text and HTML bodies (decoded by mailparser), and every http(s) link in either body. */
export async function parseMail(raw: string): Promise<{ subject: string; text: string; html: string; links: string[] }> {
  const mail = await simpleParser(raw);
  const text = mail.text ?? "";
  const html = mail.html || "";
  const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, "&"));
  const links = [...new Set([...(text.match(/https?:\/\/[^\s"'<>)]+/g) ?? []), ...hrefs.filter((h) => /^https?:\/\//.test(h))])];
  return { subject: mail.subject ?? "", text, html, links };
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
        parseMail(raw).then(
          (parsed) => {
            messages.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              ...parsed,
            });
            waiters.splice(0).forEach((w) => w());
            callback();
          },
          (error: Error) => callback(error),
        );
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
