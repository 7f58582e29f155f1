/**
 * The error model and the APIs' one error shape (docs/api-errors.md): what errorAnswer makes of each kind of
 * error, how handleApi answers the session guard's refusals and lets redirects through, and how parseQuery
 * refuses a query string.
 */
import { data, redirect } from "react-router";
import { describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { oneOf, wholeNumberOr } from "#domain/query.ts";
import { handleApi, methodNotAllowed, parseQuery } from "./api.server.ts";
import {
  AppError,
  ConflictError,
  errorAnswer,
  INTERNAL_ERROR_MESSAGE,
  MethodNotAllowedError,
  NotFoundError,
  RateLimitedError,
  ValidationError,
} from "./errors.server.ts";
import { RequestBodyError } from "./request-body.server.ts";
import { DATABASE_RETRY_AFTER_SECONDS } from "#server/db/unavailable.server.ts";

describe("errorAnswer", () => {
  it("answers an AppError with its status and exactly {error: {code, message, fields?}}, never stored", () => {
    expect(errorAnswer(new NotFoundError("Not found"))).toEqual({
      status: 404,
      body: { error: { code: "NOT_FOUND", message: "Not found" } },
      headers: { "Cache-Control": "no-store" },
    });
    expect(errorAnswer(new ConflictError("This video already has its file", "ALREADY_UPLOADED")).body).toEqual({
      error: { code: "ALREADY_UPLOADED", message: "This video already has its file" },
    });
    expect(errorAnswer(new RequestBodyError("BODY_TOO_LARGE", 413, "The request body is larger than 1 bytes.")).status).toBe(413);
  });

  it("answers translation keys in Arabic, in the message and in each field", () => {
    const { status, body } = errorAnswer(new ValidationError("newsroom.v.invalid", { title: "newsroom.v.title5", other: "Plain words." }));
    expect(status).toBe(422);
    expect(body.error.code).toBe("VALIDATION");
    expect(body.error.message).toBe("بعض الحقول غير صحيحة");
    expect(body.error.fields).toEqual({ title: "العنوان يجب أن يكون 5 أحرف على الأقل", other: "Plain words." });
    // No fields, no key.
    expect(errorAnswer(new ValidationError("x", {})).body.error).not.toHaveProperty("fields");
  });

  it("carries an error's headers: Retry-After of a 429, Allow of a 405", () => {
    const limited = errorAnswer(new RateLimitedError("Too many requests", { retryAfterSeconds: 12.2 }));
    expect(limited.status).toBe(429);
    expect(limited.headers).toEqual({ "Cache-Control": "no-store", "Retry-After": "13" });
    const method = errorAnswer(new MethodNotAllowedError(["GET", "PATCH", "DELETE"]));
    expect(method.status).toBe(405);
    expect(method.body.error.message).toBe("Use GET, PATCH or DELETE");
    expect(method.headers.Allow).toBe("GET, PATCH, DELETE");
  });

  it("answers anything else with a 500 that reveals nothing", () => {
    const answer = errorAnswer(new Error('relation "contacts" does not exist'));
    expect(answer).toEqual({
      status: 500,
      body: { error: { code: "INTERNAL_ERROR", message: INTERNAL_ERROR_MESSAGE } },
      headers: { "Cache-Control": "no-store" },
    });
    expect(errorAnswer("a string").status).toBe(500);
  });

  it("answers a database that does not answer with 503 DATABASE_UNAVAILABLE and Retry-After, not a 500", () => {
    // As drizzle hands it on: the driver's time-out as the cause of its own error.
    const timedOut = new Error("Failed query: select 1", { cause: new Error("Query read timeout") });
    expect(errorAnswer(timedOut)).toEqual({
      status: 503,
      body: { error: { code: "DATABASE_UNAVAILABLE", message: "قاعدة البيانات لا تستجيب الآن. أعد المحاولة بعد قليل." } },
      headers: { "Cache-Control": "no-store", "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) },
    });
    expect(errorAnswer(new Error("timeout exceeded when trying to connect")).status).toBe(503);
    expect(errorAnswer(Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" })).status).toBe(503);
  });
});

describe("handleApi", () => {
  const run = (thrown: unknown) =>
    handleApi("test", () => {
      throw thrown;
    });

  it("answers the session guard's refusals in the one shape, keeping the cookies it clears", async () => {
    const headers = new Headers();
    headers.append("Set-Cookie", "sahara.session_token=; Max-Age=0; Path=/");
    headers.append("Set-Cookie", "sahara.session_data=; Max-Age=0; Path=/");
    const expired = await run(data({ reason: "unauthenticated" }, { status: 401, headers }));
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ error: { code: "UNAUTHENTICATED", message: "يجب تسجيل الدخول أولاً" } });
    expect(expired.headers.getSetCookie()).toHaveLength(2);
    for (const [reason, code] of [
      ["access-denied", "ACCESS_DENIED"],
      ["permission-needed", "PERMISSION_NEEDED"],
      ["confirm-email", "CONFIRM_EMAIL"],
      ["cross-origin", "CROSS_ORIGIN"],
    ]) {
      const res = await run(data({ reason }, { status: 403 }));
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
    }
  });

  it("lets a redirect or another thrown answer through, and answers an AppError", async () => {
    await expect(run(redirect("/elsewhere"))).rejects.toBeInstanceOf(Response);
    await expect(run(data(null, { status: 404 }))).rejects.toMatchObject({ type: "DataWithResponseInit" });
    const res = await run(new AppError(418, "TEAPOT", "I am a teapot"));
    expect(res.status).toBe(418);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers a method an endpoint does not take with 405, after the endpoint's own first checks", async () => {
    const plain = await methodNotAllowed(["GET"])({ request: new Request("http://localhost/api/x", { method: "POST" }), params: {} });
    expect(plain.status).toBe(405);
    expect(plain.headers.get("allow")).toBe("GET");
    const guarded = await methodNotAllowed(["POST"], () => {
      throw data({ reason: "unauthenticated" }, { status: 401 });
    })({
      request: new Request("http://localhost/api/x"),
      params: {},
    });
    expect(guarded.status).toBe(401);
  });
});

describe("parseQuery", () => {
  const Query = z.strictObject({ status: oneOf(["all", "new"]), page: wholeNumberOr(1, 1, 9) });
  const refusal = (query: string) => {
    try {
      parseQuery(new Request(`http://localhost/api/x${query}`), Query);
    } catch (error) {
      return error as AppError;
    }
    throw new Error(`${query} was accepted`);
  };

  it("reads a good query string, with the schema's defaults", () => {
    expect(parseQuery(new Request("http://localhost/api/x"), Query)).toEqual({ page: 1 });
    expect(parseQuery(new Request("http://localhost/api/x?status=new&page=3"), Query)).toEqual({ status: "new", page: 3 });
  });

  it("refuses with 400 INVALID_QUERY, one message per parameter, the first as the message", () => {
    const error = refusal("?status=old&page=0&sort=x");
    expect(error.status).toBe(400);
    expect(error.code).toBe("INVALID_QUERY");
    expect(Object.keys(error.fields!).sort()).toEqual(["page", "sort", "status"]);
    expect(error.fields!.sort).toBe('Unknown query parameter "sort". Allowed: status, page.');
    expect(Object.values(error.fields!)).toContain(error.message);
    expect(refusal("?page=1&page=2").fields).toEqual({ page: "The page parameter may be given only once." });
    expect(refusal(`?status=${"x".repeat(101)}`).fields).toEqual({ status: "The status parameter is too long." });
  });

  it("never echoes a value, and shows a strange parameter name only as word characters", () => {
    const error = refusal("?status=%3Cscript%3E&%3Cb%3E=1");
    expect(JSON.stringify(errorAnswer(error).body)).not.toMatch(/<script>|<b>/);
    expect(Object.keys(error.fields!)).toContain("?b?");
  });
});
