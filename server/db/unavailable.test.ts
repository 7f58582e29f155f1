/**
 * Which errors mean "the database cannot answer now" (a 503 with Retry-After) and which are faults of ours or the
 * request's (decision 0135): the driver's time-out and connection messages, the socket's codes, PostgreSQL's
 * SQLSTATEs, found through drizzle's wrapping and inside an AggregateError.
 */
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./unavailable.server.ts";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("recognises node-postgres's and pg-pool's time-outs and lost connections", () => {
    for (const message of [
      "Query read timeout",
      "timeout exceeded when trying to connect",
      "Connection terminated due to connection timeout",
      "Connection terminated unexpectedly",
      "Client has encountered a connection error and is not queryable",
    ]) {
      expect(isDatabaseUnavailable(new Error(message)), message).toBe(true);
    }
  });

  it("recognises a server that cannot be reached, and PostgreSQL's own codes for it", () => {
    expect(isDatabaseUnavailable(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("read ECONNRESET", "ECONNRESET"))).toBe(true);
    // Node's connect to every address of a name fails as one AggregateError.
    expect(isDatabaseUnavailable(new AggregateError([withCode("connect ECONNREFUSED ::1:5432", "ECONNREFUSED")], ""))).toBe(true);
    for (const code of ["57014", "57P01", "57P03", "08006", "08001", "53300", "25P03"]) {
      expect(isDatabaseUnavailable(withCode("from PostgreSQL", code)), code).toBe(true);
    }
  });

  it("looks through the causes an error wraps (drizzle's DrizzleQueryError)", () => {
    const wrapped = new Error("Failed query: select 1", { cause: new Error("x", { cause: new Error("Query read timeout") }) });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
  });

  it("leaves every other error to be what it is", () => {
    expect(isDatabaseUnavailable(new Error("Failed query: select 1", { cause: withCode('relation "x" does not exist', "42P01") }))).toBe(false);
    expect(isDatabaseUnavailable(withCode("duplicate key value violates unique constraint", "23505"))).toBe(false);
    expect(isDatabaseUnavailable(withCode("value out of range for type integer", "22003"))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailable("Query read timeout")).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    // A cause that leads back to itself ends the walk.
    const loop: Error & { cause?: unknown } = new Error("loop");
    loop.cause = loop;
    expect(isDatabaseUnavailable(loop)).toBe(false);
  });
});
