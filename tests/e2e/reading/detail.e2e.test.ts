/**
 * The one detail page for every content type, fed by the newsroom's JSON API on a server of its own: each
 * type opens at its public URL with its own kicker, facts, player and schema.org type; Arabic slugs work
 * percent-encoded; ids and old slugs answer 301; rich-text bodies render as HTML with nothing unsafe left;
 * drafts are 404 for readers. In Chromium: the Arabic URL as typed, a related card, a phone without overflow.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { categories } from "#server/db/schema.server.ts";
import { startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { horizontalOverflow } from "#tests/e2e/support/a11y.ts";

type Item = { id: number; page_slug: string; url: string; updated_at: string };

const BODY =
  '<h2>مكتبات الصحراء</h2><p>تحفظ <strong>المكتبات</strong> آلاف المخطوطات النادرة.</p><script>window.hacked = true</script><p onclick="alert(1)">فقرة</p>';

describe("one detail page for every content type", () => {
  let server: AuthServer<"admin">;
  let categoryId = 0;
  const created: Record<string, Item> = {};

  const create = async (segment: string, body: Record<string, unknown>) => {
    const res = await fetch(`${server.url}/api/admin/${segment}`, {
      method: "POST",
      headers: { cookie: server.personas.admin.cookie, origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ status: "published", ...body }),
    });
    expect(res.status, `${segment}: ${await res.clone().text()}`).toBe(201);
    return (await res.json()) as Item;
  };
  const get = async (path: string) => {
    const res = await fetch(server.url + path, { redirect: "manual" });
    return { status: res.status, location: res.headers.get("location"), body: await res.text() };
  };
  const jsonLd = (body: string) => JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(body)![1]) as Record<string, unknown>;

  beforeAll(async () => {
    server = await startAuthServer({
      personas: { admin: { email: "chief@detail.test", password: "Passw0rdA", role: "admin" } },
      prepare: async (db) => {
        const [c] = await db.insert(categories).values({ name: "ثقافة", nameFr: "Culture", slug: "culture", type: "culture" }).returning({ id: categories.id });
        categoryId = c.id;
      },
    });
    const article = { excerpt: "آلاف المخطوطات في مكتبات شنقيط العتيقة", content: BODY, category_id: categoryId };
    created.article = await create("articles", { title: "مخطوطات شنقيط الثمينة", ...article });
    created.related = await create("articles", { title: "مكتبات ودان العريقة", ...article });
    created.news = await create("news", {
      title: "افتتاح مهرجان مدائن التراث",
      excerpt: "افتتح اليوم مهرجان مدائن التراث",
      content: "افتتح اليوم في شنقيط مهرجان مدائن التراث.\n\nوحضر جمهور كبير.",
      category_id: categoryId,
      priority: "high",
      location: "شنقيط",
    });
    created.coverage = await create("coverage", {
      title: "تغطية مهرجان الشعر",
      excerpt: "تغطية حية لمهرجان الشعر في نواكشوط",
      content: "<p>بدأت فعاليات مهرجان الشعر في نواكشوط بحضور شعراء من البلاد كلها.</p>",
      coverage_type: "live",
      event_location: "نواكشوط",
      event_date: "2026-03-01",
      reporter_name: "مراسلنا",
    });
    created.podcast = await create("podcasts", {
      title: "حديث الخيمة",
      description: "حلقة عن الشعر الحساني",
      host_name: "أحمد",
      episode_number: "3",
      audio_url: "/uploads/podcasts/audio/episode-3.mp3",
    });
    created.program = await create("programs", {
      title: "خطوة في الصحراء",
      description: "برنامج يجول في مدن الصحراء القديمة ومكتباتها",
      program_type: "khutwa",
      host_name: "محمد",
    });
    created.draft = await create("news", {
      status: "draft",
      title: "خبر لم ينشر بعد",
      excerpt: "خبر ما زال مسودة في غرفة الأخبار",
      content: "<p>خبر ما زال مسودة في غرفة الأخبار ولا يراه القراء.</p>",
      category_id: categoryId,
      priority: "low",
    });
  });
  afterAll(() => server?.stop());

  it("opens every type at its public URL with its own kicker, facts, player and schema.org type", async () => {
    const expected = {
      article: { testId: "article-detail", ld: "NewsArticle", text: ["ثقافة", "مكتبات ودان العريقة", "تاريخ النشر"] },
      news: { testId: "news-detail", ld: "NewsArticle", text: ['data-testid="detail-location"', "شنقيط", "عاجل"] },
      coverage: { testId: "coverage-detail", ld: "ReportageNewsArticle", text: ["مراسلنا", "نواكشوط"] },
      podcast: { testId: "podcast-detail", ld: "PodcastEpisode", text: ['data-testid="podcast-audio"', "الحلقة 3", "أحمد", "تاريخ البث"] },
      program: { testId: "program-detail", ld: "TVEpisode", text: ["محمد"] },
    } as const;
    for (const [type, want] of Object.entries(expected)) {
      const item = created[type];
      expect(item.url, type).toMatch(/^\/(articles|news|coverage|podcasts|programs)\/%/);
      const page = await get(item.url);
      expect(page.status, type).toBe(200);
      expect(page.body, type).toContain(`data-testid="${want.testId}"`);
      expect(page.body, type).toContain(`<link rel="canonical" href="${server.url}${item.url}"/>`);
      expect(jsonLd(page.body)["@type"], type).toBe(want.ld);
      for (const text of want.text) expect(page.body, `${type}: ${text}`).toContain(text);
    }
    // The related card links to the other article's URL; an article's date is its publication, not a broadcast.
    const article = (await get(created.article.url)).body;
    expect(article).toContain(`href="${created.related.url}"`);
    expect(article).not.toContain("تاريخ البث");
  });

  it("renders a rich-text body as HTML, with the script and the handler gone", async () => {
    const { body } = await get(created.article.url);
    expect(body).toContain("<h2>مكتبات الصحراء</h2>");
    expect(body).toContain("<strong>المكتبات</strong>");
    expect(body).not.toContain("window.hacked");
    expect(body).not.toContain("alert(1)");
    // A plain-text body (the demo's) is paragraphs, escaped.
    const news = await get(created.news.url);
    expect(news.body).toMatch(
      /<p class="whitespace-pre-line">افتتح اليوم في شنقيط مهرجان مدائن التراث.<\/p>\s*<p class="whitespace-pre-line">وحضر جمهور كبير.<\/p>/,
    );
  });

  it("answers an id and an old slug with a 301 to the percent-encoded slug URL, and a draft with a 404", async () => {
    for (const type of ["article", "podcast"] as const) {
      const byId = await get(`${created[type].url.replace(/\/[^/]+$/, "")}/${created[type].id}`);
      expect(byId, type).toMatchObject({ status: 301, location: created[type].url });
    }
    const res = await fetch(`${server.url}/api/admin/programs/${created.program.id}`, {
      method: "PATCH",
      headers: { cookie: server.personas.admin.cookie, origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ page_slug: "خطوة-جديدة" }),
    });
    const renamed = (await res.json()) as Item;
    expect(await get(created.program.url)).toMatchObject({ status: 301, location: renamed.url });
    expect((await get(renamed.url)).status).toBe(200);
    created.program = renamed;
    const draft = await get(created.draft.url);
    expect(draft.status).toBe(404);
    expect(draft.body).toContain('data-testid="not-found"');
  });

  describe.skipIf(!hasChromium)("in Chromium", () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    afterAll(async () => browser?.close());

    it("opens the Arabic URL as typed, fits a phone, and follows a related card", async () => {
      const { page, context, errors } = await newPage(browser, { viewport: PHONE });
      await page.goto(server.url + decodeURIComponent(created.article.url));
      await hydrated(page);
      expect((await page.getByTestId("detail-title").textContent())?.trim()).toBe("مخطوطات شنقيط الثمينة");
      expect(await page.getByTestId("article-body").locator("h2").textContent()).toBe("مكتبات الصحراء");
      expect(await page.evaluate(() => (window as { hacked?: boolean }).hacked)).toBeUndefined();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await page.getByTestId("related-card").first().locator("h3 a").click();
      await page.waitForURL((url) => url.pathname === created.related.url);
      // The router commits the URL with the new data; React renders it right after.
      await expect.poll(async () => (await page.getByTestId("detail-title").textContent())?.trim()).toBe("مكتبات ودان العريقة");
      expect(errors).toEqual([]);
      await context.close();
    });
  });
});
