import { describe, expect, it } from "vitest";
import { makeErrorNumber, pageOfDataRequest } from "./request-id.ts";

describe("the error number's sources", () => {
  it("finds the page of a data request, encoded or not", () => {
    expect(pageOfDataRequest("/news.data")).toBe("/news");
    expect(pageOfDataRequest("/_root.data")).toBe("/");
    expect(pageOfDataRequest("/admin.data")).toBe("/admin");
    expect(pageOfDataRequest("/news/%D8%A3%D8%B3%D9%88%D8%A7%D8%B1.data")).toBe("/news/أسوار");
    expect(pageOfDataRequest("/news")).toBeNull();
    expect(pageOfDataRequest("/assets/app.js")).toBeNull();
  });

  it("makes a number in the server's form when no request failed", () => {
    expect(makeErrorNumber()).toMatch(/^[A-HJ-NP-Z2-9]{9}$/);
  });
});
