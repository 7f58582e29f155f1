/** The shared cache's lifetimes (CDN_MAX_AGE, CDN_STALE_WHILE_REVALIDATE, CDN_STALE_IF_ERROR) and the Cache-Control they make. */
import { describe, expect, it } from "vitest";
import { checkConfig } from "#server/config.server.ts";
import { PAGE_CACHE_DEFAULTS, publicCacheControl } from "./page-cache.server.ts";
import { sharedCacheControl, sharedPageCacheControl } from "./shared-cache.server.ts";

describe("shared cache settings", () => {
  it("default to what pages said before the settings existed", () => {
    const { config, errors } = checkConfig({});
    expect(errors).toEqual([]);
    expect(sharedPageCacheControl(config)).toBe(publicCacheControl(PAGE_CACHE_DEFAULTS));
    expect(sharedCacheControl(60, config)).toBe("public, max-age=60, s-maxage=60, stale-while-revalidate=600, stale-if-error=86400");
  });

  it("drive s-maxage, stale-while-revalidate and stale-if-error", () => {
    const { config, errors } = checkConfig({ CDN_MAX_AGE: "3600", CDN_STALE_WHILE_REVALIDATE: "30", CDN_STALE_IF_ERROR: "0" });
    expect(errors).toEqual([]);
    expect(sharedPageCacheControl(config)).toBe("public, max-age=0, s-maxage=3600, stale-while-revalidate=30, stale-if-error=0");
    expect(sharedCacheControl(300, config)).toBe("public, max-age=300, s-maxage=3600, stale-while-revalidate=30, stale-if-error=0");
  });

  it("refuse what is not a whole number of seconds", () => {
    for (const [name, value] of [
      ["CDN_MAX_AGE", "-1"],
      ["CDN_STALE_WHILE_REVALIDATE", "1.5"],
      ["CDN_STALE_IF_ERROR", "a day"],
    ]) {
      const { errors } = checkConfig({ [name]: value });
      expect(errors.join(" "), name).toContain(name);
    }
  });
});
