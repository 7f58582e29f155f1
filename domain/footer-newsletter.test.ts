import { describe, expect, it } from "vitest";
import { footerNewsletterBack, footerNewsletterNotice, footerNewsletterOutcome, showsFooterNewsletter } from "./footer-newsletter.ts";

describe("the footer sign-up's answer in the address", () => {
  it("reads back each outcome it writes, and nothing else", () => {
    for (const outcome of ["sent", "required", "invalid", "limited", "failed"] as const)
      expect(footerNewsletterOutcome(`?page=2&notice=${footerNewsletterNotice(outcome)}`)).toBe(outcome);
    expect(footerNewsletterOutcome("?notice=load-failed")).toBeNull();
    expect(footerNewsletterOutcome("?notice=newsletter-hacked")).toBeNull();
    expect(footerNewsletterOutcome("")).toBeNull();
  });

  it("comes back to the page's own address, a notice said before dropped", () => {
    expect(footerNewsletterBack("/fr/news", "?page=2&notice=newsletter-invalid")).toBe("/fr/news?page=2");
    expect(footerNewsletterBack("/", "")).toBe("/");
  });

  it("is on every page but those with a sign-up of their own, in every language", () => {
    for (const path of ["/", "/news", "/fr/articles/x", "/en/opinion-pieces"]) expect(showsFooterNewsletter(path), path).toBe(true);
    for (const path of ["/opinion", "/fr/opinion", "/en/opinion"]) expect(showsFooterNewsletter(path), path).toBe(false);
  });
});
