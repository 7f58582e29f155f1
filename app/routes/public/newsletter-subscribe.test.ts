import { describe, expect, it } from "vitest";
import { footerNewsletterNotice } from "#domain/footer-newsletter.ts";
import { pageQuery } from "#app/lib/addresses.ts";
import { backTo } from "./newsletter-subscribe.ts";

describe("the footer sign-up's way back", () => {
  it("is never part of the page's address (canonical, alternates)", () => {
    expect(pageQuery(`?page=2&notice=${footerNewsletterNotice("sent")}`)).toBe("?page=2");
  });
});

describe("backTo", () => {
  it("keeps a path of this site with its query", () => {
    const url = backTo("/fr/articles/x?page=2", "/fr");
    expect(url.pathname + url.search).toBe("/fr/articles/x?page=2");
  });

  it.each(["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "", null])("refuses %s for the home page", (value) => {
    const url = backTo(value, "/en");
    expect(url.pathname + url.search).toBe("/en");
  });
});
