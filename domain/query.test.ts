import { describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { oneOf, pageParam, wholeNumber, wholeNumberOr } from "./query.ts";

describe("query-string pieces", () => {
  it("reads whole numbers written in digits only, within bounds", () => {
    const n = wholeNumber(1, 50);
    expect(z.parse(n, "12")).toBe(12);
    for (const bad of ["0", "51", "-1", "1e1", " 12", "+12", "12.0", "0x10", "ten", "", "9".repeat(20)]) {
      expect(z.safeParse(n, bad).success, bad).toBe(false);
    }
    expect(z.safeParse(n, "51").error?.issues[0].message).toBe("must be a whole number from 1 to 50");
  });

  it("uses the fallback when a number is absent or empty", () => {
    const n = wholeNumberOr(12, 1, 50);
    expect(z.parse(n, undefined)).toBe(12);
    expect(z.parse(n, null)).toBe(12);
    expect(z.parse(n, "")).toBe(12);
    expect(z.parse(n, "3")).toBe(3);
  });

  it("takes one of a list, without echoing a bad value", () => {
    const kind = oneOf(["poetry", "prose"]);
    expect(z.parse(kind, "prose")).toBe("prose");
    expect(z.parse(kind, undefined)).toBeUndefined();
    const bad = z.safeParse(kind, "<script>");
    expect(bad.error?.issues[0].message).toBe("must be one of: poetry, prose");
  });

  it("reads a listing's page number, 1 when absent, and answers 400 for anything else", () => {
    expect(pageParam(new URL("http://x/news"))).toBe(1);
    expect(pageParam(new URL("http://x/news?page="))).toBe(1);
    expect(pageParam(new URL("http://x/news?page=3"), "page", 20)).toBe(3);
    for (const bad of ["0", "21", "abc", "-1"]) {
      let thrown: unknown;
      try {
        pageParam(new URL(`http://x/news?page=${bad}`), "page", 20);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, bad).toMatchObject({ init: { status: 400 }, data: { error: { code: "INVALID_PAGE" } } });
    }
  });
});
