/**
 * The one form-action answer (server/http/form-action.server.ts): a refused body, a validation failure, a
 * conflict and a rate limit become the same failure shape with their status; anything else goes on.
 */
import { describe, expect, it } from "vitest";
import { redirect } from "react-router";
import { z } from "zod/mini";
import type { FormAnswer } from "#domain/form-answer.ts";
import { AppError, ConflictError, RateLimitedError } from "./errors.server.ts";
import { checkForm, failedWhile, formAction, formSuccess } from "./form-action.server.ts";
import { BODY_LIMITS } from "./request-body.server.ts";

type Answer = FormAnswer<"name"> & { intent?: string | null };

const Schema = z.object({ name: z.string().check(z.minLength(1, "required"), z.maxLength(5, "tooLong")) });

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://localhost/contact", { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers } });

/** What React Router would send: the answer and its status and headers. */
function answerOf(result: unknown) {
  if (result instanceof Response) return { status: result.status, data: null, headers: result.headers };
  const { data, init } = result as { data: Answer; init: ResponseInit | null };
  return { status: init?.status ?? 200, data, headers: new Headers(init?.headers) };
}

const echo = (form: FormData | null) => ({ intent: form ? (form.get("intent") as string) : null });

describe("formAction", () => {
  it("hands the form over and passes its answer on", async () => {
    const result = await formAction<Answer>(post("name=ab&intent=x"), { echo }, (form) => formSuccess<Answer>({ intent: form.get("name") as string }));
    expect(answerOf(result)).toMatchObject({ status: 200, data: { ok: true, intent: "ab" } });
  });

  it("answers a body over the limit with 413 BODY_TOO_LARGE, without what could not be read", async () => {
    const big = `name=${"x".repeat(BODY_LIMITS.account + 1)}`;
    const result = await formAction<Answer>(post(big), { limit: "account", echo }, () => formSuccess<Answer>());
    expect(answerOf(result)).toMatchObject({ status: 413, data: { ok: false, formError: "BODY_TOO_LARGE", intent: null } });
    const small = await formAction<Answer>(post("name=abcdef"), { limit: 4, echo }, () => formSuccess<Answer>());
    expect(answerOf(small).status).toBe(413);
  });

  it("answers a body that is not a form with 400 BAD_REQUEST", async () => {
    const request = post("--zz\r\nnot multipart", { "Content-Type": "multipart/form-data; boundary=zz" });
    const result = await formAction<Answer>(request, {}, () => formSuccess<Answer>());
    expect(answerOf(result)).toMatchObject({ status: 400, data: { ok: false, formError: "BAD_REQUEST" } });
  });

  it("answers a validation failure with 400, the fields' messages and what the route echoes", async () => {
    const empty = await formAction<Answer>(post("name=&intent=a"), { echo }, (form) => {
      checkForm(Schema, { name: form.get("name") });
      return formSuccess<Answer>();
    });
    expect(answerOf(empty)).toMatchObject({ status: 400, data: { ok: false, formError: "REQUIRED", fields: { name: "required" }, intent: "a" } });
    const long = await formAction<Answer>(post("name=abcdefgh"), {}, (form) => {
      checkForm(Schema, { name: form.get("name") });
      return formSuccess<Answer>();
    });
    expect(answerOf(long)).toMatchObject({ status: 400, data: { ok: false, formError: "INVALID", fields: { name: "tooLong" } } });
  });

  it("answers a conflict with 409, and a rate limit with 429, Retry-After and retryAfterSeconds", async () => {
    const conflict = await formAction<Answer>(post("name=a"), {}, () => {
      throw new ConflictError("Saved by someone else.");
    });
    expect(answerOf(conflict)).toMatchObject({ status: 409, data: { ok: false, formError: "CONFLICT" } });
    const limited = answerOf(
      await formAction<Answer>(post("name=a"), {}, () => {
        throw new RateLimitedError("Too many.", { retryAfterSeconds: 41.2 });
      }),
    );
    expect(limited).toMatchObject({ status: 429, data: { ok: false, formError: "RATE_LIMITED", retryAfterSeconds: 42 } });
    expect(limited.headers.get("Retry-After")).toBe("42");
  });

  it("puts the route's own headers on every failure, beside the error's", async () => {
    const refused = answerOf(
      await formAction<Answer>(post("name=a"), { headers: { "Cache-Control": "no-store" } }, () => {
        throw new RateLimitedError("Too many.", { retryAfterSeconds: 5 });
      }),
    );
    expect(refused.headers.get("Cache-Control")).toBe("no-store");
    expect(refused.headers.get("Retry-After")).toBe("5");
  });

  it("lets a redirect and an error of ours go on", async () => {
    const moved = await formAction<Answer>(post("name=a"), {}, () => redirect("/done"));
    expect(moved).toBeInstanceOf(Response);
    expect((moved as Response).status).toBe(302);
    await expect(
      formAction<Answer>(post("name=a"), {}, () => {
        throw new TypeError("a bug");
      }),
    ).rejects.toThrow("a bug");
  });

  it("failedWhile: an AppError as it is, anything else 500 FAILED (or the status given)", () => {
    const known = new AppError(404, "NOT_FOUND", "Gone.");
    expect(failedWhile("test: lookup failed", known)).toBe(known);
    const unknown = failedWhile("test: save failed", new Error("disk"));
    expect([unknown.status, unknown.code]).toEqual([500, "FAILED"]);
    expect(failedWhile("test: upstream failed", new Error("down"), {}, 502).status).toBe(502);
  });
});
