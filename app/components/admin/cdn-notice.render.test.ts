/**
 * What the item's edit page says of when readers see a save (issue 43): within seconds with a purge of the shared
 * cache, a warning when the latest purge failed, the shared cache's time-to-live without one.
 */
import { createElement as h } from "react";
import { describe, expect, it } from "vitest";
import { renderUnderRoot, visibleText } from "#tests/helpers/render.ts";
import { CdnNotice, type CdnNoticeSummary } from "./cdn-notice.tsx";

const render = renderUnderRoot;
const text = visibleText;
const state = (html: string) => /data-state="([a-z]+)"/.exec(html)?.[1];

describe("when readers see a save, on the item's edit page", () => {
  it("says within seconds with a purge driver, whether the purge is done or on its way", () => {
    for (const last of ["ok", "pending", "none"] as const) {
      const html = render(h(CdnNotice, { notice: { driver: "varnish", last } }), "en");
      expect(state(html)).toBe("purged");
      expect(text(html)).toBe(
        "When readers see it Readers see your changes within seconds of saving: the copies the site serves from its cache are refreshed at once.",
      );
    }
    expect(text(render(h(CdnNotice, { notice: { driver: "bunny", last: "ok" } })))).toContain("يرى القرّاء تعديلاتك خلال ثوانٍ من الحفظ");
  });

  it("says so when the latest purge failed, and whether it is being tried again", () => {
    const retrying = render(h(CdnNotice, { notice: { driver: "cloudflare", last: "retrying" } }), "fr");
    expect(state(retrying)).toBe("retrying");
    expect(text(retrying)).toContain("Le dernier renouvellement du cache du site a échoué et va être retenté");
    const failed = render(h(CdnNotice, { notice: { driver: "varnish", last: "failed" } }));
    expect(state(failed)).toBe("failed");
    expect(text(failed)).toContain("تعذّر تجديد الذاكرة المؤقتة للموقع رغم عدة محاولات");
    expect(text(failed)).toContain("يُرجى إبلاغ الفريق التقني");
  });

  it("gives the shared cache's time-to-live without a purge driver, and nothing for a new item", () => {
    const none = (seconds: number): CdnNoticeSummary => ({ driver: "none", seconds });
    expect(text(render(h(CdnNotice, { notice: none(60) }), "en"))).toBe(
      "When readers see it Readers see your changes at most 60 seconds after saving, when the copy of the page kept in the site’s cache expires.",
    );
    expect(text(render(h(CdnNotice, { notice: none(3) })))).toContain("خلال 3 ثوانٍ على الأكثر من الحفظ");
    expect(text(render(h(CdnNotice, { notice: none(300) }), "fr"))).toContain("au plus 300 secondes après l’enregistrement");
    expect(render(h(CdnNotice, { notice: null }))).toBe("");
  });
});
