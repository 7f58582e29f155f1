import { describe, expect, it } from "vitest";
import { newsletterCampaign, pushAlertCampaign, pushAlertOfCampaign, sendIdOfCampaign, taggedUrl, withoutTrackingParams } from "./link-tags.ts";

describe("the site's own link tags", () => {
  it("adds the source and campaign to an address, before its fragment, replacing tags it had", () => {
    expect(taggedUrl("https://s.test/news/x", { source: "whatsapp" })).toBe("https://s.test/news/x?utm_source=whatsapp");
    expect(taggedUrl("/fr/news/x", { source: "newsletter", campaign: newsletterCampaign(9) })).toBe("/fr/news/x?utm_source=newsletter&utm_campaign=send-9");
    expect(taggedUrl("/media#media-3", { source: "push", campaign: pushAlertCampaign("media", 3) })).toBe(
      "/media?utm_source=push&utm_campaign=alert-media-3#media-3",
    );
    expect(taggedUrl("/search?q=x&utm_source=old", { source: "telegram" })).toBe("/search?q=x&utm_source=telegram");
  });

  it("names what a campaign is about, and nothing for a campaign that is not ours", () => {
    expect(sendIdOfCampaign(newsletterCampaign(12))).toBe(12);
    expect(pushAlertOfCampaign(pushAlertCampaign("coverage_entry", 7))).toEqual({ type: "coverage_entry", id: 7 });
    expect(pushAlertOfCampaign(pushAlertCampaign("news", 42))).toEqual({ type: "news", id: 42 });
    for (const other of ["", "summer", "send-", "send-x", "alert-news", "alert--3", "alert-news-3x"]) {
      expect(sendIdOfCampaign(other), other).toBeNull();
      expect(pushAlertOfCampaign(other), other).toBeNull();
    }
  });
});

describe("addresses without tracking parameters", () => {
  it.each([
    ["/", "/"],
    ["/news/x", "/news/x"],
    ["/news?page=2", "/news?page=2"],
    ["/?utm_source=whatsapp", "/"],
    ["/fr/news/x?utm_source=newsletter&utm_campaign=send-9", "/fr/news/x"],
    ["/news?utm_source=push&page=2&utm_campaign=alert-news-1", "/news?page=2"],
    ["/news?page=2&fbclid=IwAR0abc&gclid=xyz", "/news?page=2"],
    ["/?UTM_Source=x&utm_term", "/"],
    // Only whole names: a parameter that merely starts like one stays.
    ["/search?q=utm_source&gclidx=1", "/search?q=utm_source&gclidx=1"],
    ["/a&utm_source=x", "/a&utm_source=x"],
  ])("%s → %s", (target, expected) => {
    expect(withoutTrackingParams(target)).toBe(expected);
  });
});
