import { describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { ID_MAX, idSchema, isIdNumber, parseId } from "./ids.ts";

describe("ids against their column's range (issue 39)", () => {
  it("takes 1..2147483647 as a JSON number or decimal text", () => {
    for (const [value, id] of [
      [1, 1],
      ["1", 1],
      [ID_MAX, ID_MAX],
      ["2147483647", ID_MAX],
      ["007", 7],
    ] as const) {
      expect(parseId(value), String(value)).toBe(id);
    }
  });

  it("refuses what names no row of an integer column, the out-of-range values first", () => {
    for (const value of [
      0,
      -1,
      2147483648,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.NaN,
      1.5,
      "0",
      "-1",
      "2147483648",
      "99999999999",
      "1e309",
      "1.5",
      "0x10",
      "1e3",
      "+1",
      " 1",
      "",
      null,
      undefined,
      true,
      [1],
      { id: 1 },
    ]) {
      expect(parseId(value), JSON.stringify(value) ?? "undefined").toBeNull();
    }
    // A JSON number written 1e309 parses as Infinity: still nothing.
    expect(parseId((JSON.parse('{"id": 1e309}') as { id: number }).id)).toBeNull();
  });

  it("keeps numbers apart where a JSON API takes numbers only", () => {
    expect(isIdNumber(5)).toBe(true);
    expect(isIdNumber("5")).toBe(false);
    expect(isIdNumber(2147483648)).toBe(false);
  });

  it("as a zod schema: the number, or the field's message", () => {
    const schema = idSchema("v.id");
    expect(z.parse(schema, " 42 ")).toBe(42);
    const refused = z.safeParse(schema, 2147483648);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe("v.id");
  });
});
