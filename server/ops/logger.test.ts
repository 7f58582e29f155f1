import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { CodedError, levelOf } from "#server/errors.server.ts";
import { AppError, NotFoundError, RateLimitedError, UnavailableError } from "#server/http/errors.server.ts";
import { PermanentJobError } from "#server/jobs/queue.server.ts";
import { StorageError } from "#server/media/storage/driver.server.ts";
import { createLogger, scrubSecrets } from "./logger.server.ts";

/** The JSON lines a logger with the module's rules writes. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const log = createLogger(stream);
  log.level = "info";
  return { log, text: () => lines.join("") };
}

describe("log redaction", () => {
  const TOKEN = "tok3n-9f8e7d6c5b4a-reset";

  it("replaces credential fields wherever they sit, and leaves the rest", () => {
    const { log, text } = capture();
    const body = { email: "a@b.test", password: "Passw0rd-secret", nested: { token: TOKEN, keep: "visible" } };
    log.info({ body, password: "Top-Passw0rd", headers: { cookie: "sahara.session_token=abc123", authorization: "Basic dXNlcjpwYXNz" } }, "request");
    log.info({ to: "a@b.test", links: [`https://site.test/auth/reset?token=${TOKEN}`], req: { headers: { "set-cookie": "s=1" } } }, "mail");
    log.info({ user: { secret: "s3cr3t-value", apiKey: "k3y-value", accessToken: "acc3ss" } }, "deep");
    const out = text();
    for (const leaked of ["Passw0rd-secret", "Top-Passw0rd", TOKEN, "abc123", "dXNlcjpwYXNz", "s3cr3t-value", "k3y-value", "acc3ss", "s=1"]) {
      expect(out.includes(leaked), `${leaked} in ${out}`).toBe(false);
    }
    expect(out).toContain("[redacted]");
    expect(out).toContain('"keep":"visible"');
    expect(out).toContain('"email":"a@b.test"');
    // The logged object is the caller's own: it is not altered.
    expect(body.password).toBe("Passw0rd-secret");
    expect(body.nested.token).toBe(TOKEN);
  });

  it("replaces token query values, URL passwords and bearer credentials in any string field and in errors", () => {
    const { log, text } = capture();
    log.info({ url: `/auth/reset?token=${TOKEN}&lang=ar`, target: new URL(`https://cdn.test/v.mp4?X-Amz-Signature=${TOKEN}`) }, "request");
    log.warn({ note: `Authorization: Bearer ${TOKEN}`, list: [`postgres://app:${TOKEN}@db:5432/news`] }, "strings");
    log.error({ err: new Error(`fetch https://api.test/x?access_token=${TOKEN} failed`) }, "failed");
    // Without a message of ours, pino takes the error's.
    log.error(new Error(`GET /auth/verify?token=${TOKEN}`));
    log.error({ err: new Error(`GET /auth/verify?token=${TOKEN}`) });
    const out = text();
    expect(out.includes(TOKEN), out).toBe(false);
    expect(out).toContain("/auth/reset?token=[redacted]&lang=ar");
    expect(out).toContain("postgres://app:[redacted]@db:5432/news");
    expect(out).toContain('"type":"Error"');
    expect(out).toContain("access_token=[redacted] failed");
    expect(out).toContain('"msg":"GET /auth/verify?token=[redacted]"');
  });

  it("scrubs only credential-shaped parts of a string", () => {
    expect(scrubSecrets("/news?page=2&q=token")).toBe("/news?page=2&q=token");
    expect(scrubSecrets("redis://localhost:6379")).toBe("redis://localhost:6379");
    expect(scrubSecrets("smtp://user:pa55@mail.test:587")).toBe("smtp://user:[redacted]@mail.test:587");
    expect(scrubSecrets("/confirm?code=123&token=abc#x")).toBe("/confirm?code=[redacted]&token=[redacted]#x");
  });
});

describe("a CodedError in the log", () => {
  const TOKEN = "tok3n-1a2b3c4d5e6f-mail";

  it("writes its code, level and context beside the message, the context scrubbed by name and by shape", () => {
    const { log, text } = capture();
    const error = new CodedError("MAIL_FAILED", "the mail server refused", {
      level: "warn",
      context: { sendId: 42, recipients: 3, token: TOKEN, url: `https://site.test/confirm?token=${TOKEN}` },
    });
    log.error({ err: error }, "mail failed");
    const line = JSON.parse(text()) as { err: Record<string, unknown> };
    expect(line.err).toMatchObject({ type: "CodedError", code: "MAIL_FAILED", level: "warn", message: "the mail server refused" });
    expect(line.err.context).toEqual({ sendId: 42, recipients: 3, token: "[redacted]", url: "https://site.test/confirm?token=[redacted]" });
    expect(text().includes(TOKEN)).toBe(false);
  });

  it("keeps the code and context of a subclass, and of an AppError", () => {
    const { log, text } = capture();
    log.warn({ err: new StorageError("Upload failed with status 503: Service Unavailable", 503) }, "upload failed");
    log.warn({ err: new UnavailableError("SEARCH_TIMEOUT", "search took too long", { context: { ms: 800 } }) }, "search failed");
    const [storage, search] = text()
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { err: Record<string, unknown> }).err);
    expect(storage).toMatchObject({ type: "StorageError", code: "STORAGE_FAILED", level: "error", status: 503, context: { status: 503 } });
    expect(search).toMatchObject({ type: "UnavailableError", code: "SEARCH_TIMEOUT", level: "error", status: 503, context: { ms: 800 } });
  });
});

describe("the level of a line about an error", () => {
  it("is the error's own, or the place's when it has none", () => {
    expect(levelOf(new CodedError("X", "x", { level: "info" }))).toBe("info");
    expect(levelOf(new PermanentJobError("no id"), "error")).toBe("warn");
    expect(levelOf(new Error("x"), "warn")).toBe("warn");
    expect(levelOf("thrown text")).toBe("error");
    expect(new NotFoundError("Not found").level).toBe("info");
    expect(new RateLimitedError("Too many").level).toBe("warn");
    expect(new AppError(500, "INTERNAL_ERROR", "x").level).toBe("error");
  });
});
