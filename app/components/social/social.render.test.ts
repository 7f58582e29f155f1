/**
 * The social feed's components rendered on the server: the home excerpt is cut at 120 characters with an
 * ellipsis, each line of a post carries its own dir and lang, links leave without a referrer, and the
 * /facebook page shows its states (list with a load-more link that works without JavaScript, error with the
 * spec's title and hint, not configured).
 */
import { createElement as h, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "#app/lib/i18n.ts";
import type { Language } from "#domain/language.ts";
import { translationsFor } from "#server/http/i18n.server.ts";
import FacebookPage from "#app/routes/public/facebook.tsx";
import { SocialPostGrid, type SocialPost } from "./post-card.tsx";

const LONG_AR =
  "افتتاح مهرجان مدائن التراث في وادان بمشاركة واسعة من الفرق الشعبية والحرفيين القادمين من مختلف ولايات الوطن، وسط حضور جماهيري كبير وأمسيات شعرية.";

function post(n: number, extra: Partial<SocialPost> = {}): SocialPost {
  return {
    id: `1_${n}`,
    message: LONG_AR,
    createdTime: "2024-05-20T10:00:00.000Z",
    permalinkUrl: `https://www.facebook.com/1/posts/${n}`,
    imageUrl: `/social/image/${"a".repeat(32)}`,
    link: null,
    authorName: "Sahara Média",
    ...extra,
  };
}

function render(element: ComponentType<never>, props: unknown, lang: Language = "ar"): string {
  const router = createMemoryRouter([{ path: "*", Component: () => h(element, props as never) }], { initialEntries: ["/facebook"] });
  const i18n = createI18n(lang, translationsFor(lang));
  return renderToString(h(I18nextProvider, { i18n }, h(RouterProvider, { router })));
}

/** The opening tag of the element marked with a test id. */
const tagOf = (html: string, testId: string) => new RegExp(`<[a-z]+ [^>]*data-testid="${testId}"[^>]*>`).exec(html)?.[0] ?? "";
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"');

describe("social post cards", () => {
  it("cut the home excerpt at 120 characters with an ellipsis, right to left and in Arabic", () => {
    const html = render(SocialPostGrid as ComponentType<never>, { posts: [post(1)] });
    const paragraph = /<p dir="rtl" lang="ar"[^>]*>([^<]*)<\/p>/.exec(html)?.[1] ?? "";
    expect(paragraph.endsWith("…")).toBe(true);
    expect(paragraph.length).toBeLessThanOrEqual(121);
    expect(LONG_AR.startsWith(paragraph.slice(0, -1))).toBe(true);
    expect(html).toContain(`src="/social/image/${"a".repeat(32)}"`);
    expect(html).toMatch(/href="https:\/\/www\.facebook\.com\/1\/posts\/1" target="_blank" rel="noopener noreferrer nofollow ugc"/);
  });

  it("show every line of a full post with its own direction and language, links isolated left to right", () => {
    const message = "افتتاح معرض الكتاب في نواكشوط!\nOuverture du salon du livre : https://sahara-media.mr/livre.";
    const html = render(FacebookPage as ComponentType<never>, {
      loaderData: { feed: { state: "ok", posts: [post(2, { message })], nextCursor: null }, cursor: null, pageUrl: "https://www.facebook.com/1" },
    });
    expect(html).toContain('<p dir="rtl" lang="ar">افتتاح معرض الكتاب في نواكشوط!</p>');
    expect(html).toMatch(/<p dir="ltr" lang="fr">Ouverture du salon du livre : <a href="https:\/\/sahara-media\.mr\/livre"[^>]*dir="ltr"/);
  });
});

describe("the /facebook page", () => {
  const ok = (nextCursor: string | null) => ({
    loaderData: { feed: { state: "ok", posts: [post(1), post(2), post(3)], nextCursor }, cursor: null, pageUrl: "https://www.facebook.com/saharamedia" },
  });

  it("lists the posts with a link to the page and a load-more link that works without JavaScript", () => {
    const html = render(FacebookPage as ComponentType<never>, ok("QWZ0ZXI"));
    expect(html).toContain('data-state="list"');
    expect(html.match(/data-testid="social-post"/g)).toHaveLength(3);
    expect(tagOf(html, "social-page-link")).toContain('href="https://www.facebook.com/saharamedia"');
    expect(tagOf(html, "social-load-more")).toContain('href="/facebook?cursor=QWZ0ZXI"');
    expect(render(FacebookPage as ComponentType<never>, ok(null))).toContain('data-testid="social-end"');
  });

  it("says the feed is empty, or not configured, without an error", () => {
    const empty = render(FacebookPage as ComponentType<never>, {
      loaderData: { feed: { state: "ok", posts: [], nextCursor: null }, cursor: null, pageUrl: null },
    });
    expect(empty).toContain('data-state="empty"');
    const off = render(FacebookPage as ComponentType<never>, { loaderData: { feed: { state: "off" }, cursor: null, pageUrl: null } }, "fr");
    expect(off).toContain('data-state="off"');
    expect(text(off)).toContain("Le fil Facebook de ce site n’est pas encore configuré.");
    expect(off).not.toContain('role="alert"');
  });

  it("on error shows 'Failed to load posts', the message and the hint about the page access token", () => {
    const message = "Unauthorized. Your Facebook access token is invalid or expired.";
    const props = { loaderData: { feed: { state: "error", message, status: 401 }, cursor: null, pageUrl: null } };
    const en = text(render(FacebookPage as ComponentType<never>, props, "en"));
    expect(en).toContain("Failed to load posts");
    expect(en).toContain(message);
    expect(en).toContain("Check the page access token.");
    const ar = render(FacebookPage as ComponentType<never>, props, "ar");
    expect(ar).toContain('data-state="error"');
    expect(text(ar)).toContain("تعذر تحميل المنشورات");
    expect(text(ar)).toContain("تحقق من رمز الوصول إلى الصفحة.");
  });
});
