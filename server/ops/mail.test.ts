import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkConfig } from "#server/config.server.ts";
import { readOutbox, sendMail } from "./mail.server.ts";
import { startSmtpReceiver } from "#tests/helpers/smtp.ts";

describe("mail", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
  });
  afterAll(async () => smtp?.close());

  it("sends through SMTP when SMTP_URL is set", async () => {
    const { config } = checkConfig({ SMTP_URL: smtp.url, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "mail-")) });
    const sent = await sendMail({ to: "reader@sahara.test", subject: "تأكيد الاشتراك", text: "افتح الرابط: http://localhost:3000/confirm?token=abc" }, config);
    expect(sent.driver).toBe("smtp");
    const mail = await smtp.waitFor("reader@sahara.test");
    expect(mail.subject).toBe("تأكيد الاشتراك");
    expect(mail.links).toContain("http://localhost:3000/confirm?token=abc");
  });

  it("writes to the outbox when no SMTP_URL is set", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mail-"));
    const { config } = checkConfig({ DATA_DIR: dataDir });
    const sent = await sendMail({ to: "a@b.test", subject: "Hello", text: "x http://h/l", links: ["http://h/l"] }, config);
    expect(sent.driver).toBe("outbox");
    expect(fs.readFileSync(sent.file!, "utf8")).toContain("Subject: Hello");
    expect(readOutbox(config).at(-1)).toMatchObject({ to: "a@b.test", links: ["http://h/l"] });
  });

  it("reports an unreachable SMTP server as an error", async () => {
    const { config } = checkConfig({ SMTP_URL: "smtp://127.0.0.1:1" });
    await expect(sendMail({ to: "a@b.test", subject: "s", text: "t" }, config)).rejects.toMatchObject({ code: "MAIL_FAILED" });
  });
});
