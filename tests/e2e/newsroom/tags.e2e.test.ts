/**
 * Tags (issue 29, decision 0122) against the built server, in Chromium: a tag typed in an article's form (chips made
 * with Enter and the Arabic comma, a suggestion of an existing tag spelt another way picked with the keyboard,
 * Backspace) gets its public page, its RSS feed, a link under the article and JSON-LD `keywords`, and a place in the
 * sitemap; the tags screen renames (name and slug), merges and deletes after «تأكيد الحذف» with the count of items;
 * the JSON API answers its refusals in the one error shape; the screen is axe clean in Arabic and French, on a
 * phone and a desktop.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseXml, validate as validateXml } from "fast-xml-parser";
import { DESKTOP, hasChromium, PHONE } from "#tests/e2e/support/browser.ts";
import { horizontalOverflow } from "#tests/e2e/support/a11y.ts";
import {
  contentEditor,
  expectToast,
  keepEvidence,
  mainViolations,
  open,
  publicPage,
  richEditorReady,
  saveAndExpectToast,
  signedInPage,
  sitemapUrls,
  staffItem,
  startNewsroomBrowser,
  stopNewsroomBrowser,
  typeBody,
  type NewsroomBrowser,
} from "./support.ts";

type Who = "editor" | "reader";
type Tag = { id: number; slug: string; name: string; count: number; url: string };
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

describe.skipIf(!hasChromium)("tags", () => {
  let ctx: NewsroomBrowser<Who>;
  let base: string;
  let newsCategory = 0;

  const call = (method: string, path: string, { who = "editor" as Who | null, body, raw }: { who?: Who | null; body?: unknown; raw?: string } = {}) =>
    fetch(base + path, {
      method,
      headers: {
        cookie: who ? ctx.server.personas[who].cookie : "",
        origin: base,
        ...(body === undefined && raw === undefined ? {} : { "content-type": "application/json" }),
      },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
  /** A published news item with these tags, through the JSON API. */
  const newsWith = async (title: string, tags: string[]) => {
    const res = await call("POST", "/api/admin/news", {
      body: {
        title,
        excerpt: "مقتطف الخبر عن المدن القديمة",
        content: "<p>نص الخبر كاملاً عن المدن القديمة في آدرار وما حولها.</p>",
        category_id: newsCategory,
        priority: "medium",
        location: "آدرار",
        status: "published",
        tags,
      },
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: number; url: string; tags: Tag[] };
  };
  const tagNamed = async (q: string) => ((await (await call("GET", `/api/admin/tags?q=${encodeURIComponent(q)}`)).json()) as { tags: Tag[] }).tags[0];

  beforeAll(async () => {
    ctx = await startNewsroomBrowser<Who>({
      editor: contentEditor("tags-editor@newsroom.test"),
      reader: { email: "tags-reader@newsroom.test", password: "Passw0rdR", role: "reader" },
    });
    base = ctx.base;
    const { categories } = (await (await fetch(`${base}/api/categories?type=news`)).json()) as { categories: { id: number }[] };
    newsCategory = categories[0].id;
  }, 240_000);
  afterAll(() => stopNewsroomBrowser(ctx?.browser, ctx?.server));

  it("a tag typed in a form gets its public page and feed", async () => {
    // An existing tag, spelt with a hamza under the alef: the form suggests it for «الانتخ».
    await newsWith("خبر سابق عن الانتخابات الرئاسية", ["الإنتخابات الرئاسية"]);
    const { context, page } = await signedInPage(ctx.browser, ctx.server, ctx.server.personas.editor, { viewport: DESKTOP });
    await keepEvidence(page, "tags-form", async () => {
      const title = `مقال بوسوم ${Date.now().toString(36)}`;
      await open(page, `${base}/admin/articles/new`);
      await richEditorReady(page);
      await page.fill('[data-testid="input-title"]', title);
      await page.fill('[data-testid="input-excerpt"]', "مقتطف المقال عن نواكشوط والانتخابات");
      await typeBody(page, "نص المقال كاملاً عن المدينة والانتخابات الرئاسية فيها.");
      await page.selectOption('[data-testid="input-category_id"]', { index: 1 });

      const input = page.getByRole("combobox", { name: "الوسوم" });
      // A new tag, ended with Enter (the form is not submitted).
      await input.pressSequentially("نواكشوط");
      await input.press("Enter");
      // An existing one, typed another way and picked from the suggestions with the keyboard.
      await input.pressSequentially("الانتخ");
      const suggestion = page.getByRole("option", { name: /الإنتخابات الرئاسية/ });
      await suggestion.waitFor();
      expect(await input.getAttribute("aria-expanded")).toBe("true");
      await input.press("ArrowDown");
      expect(await input.getAttribute("aria-activedescendant")).toBe(await suggestion.getAttribute("id"));
      await input.press("Enter");
      // The Arabic comma ends a tag; Backspace in the empty input removes the last one; then it comes back.
      await input.pressSequentially("شنقيط،");
      const chips = page.locator('[data-testid="tag-chip"]');
      await expect.poll(() => chips.allTextContents()).toEqual(["نواكشوط", "الإنتخابات الرئاسية", "شنقيط"]);
      await input.press("Backspace");
      await expect.poll(() => chips.count()).toBe(2);
      expect(await page.locator('[data-testid="tags-announcement"]').textContent()).toBe("أزيل الوسم شنقيط.");
      await input.pressSequentially("شنقيط");
      await input.press("Enter");
      expect(await page.inputValue('[data-testid="input-tags"]')).toBe("نواكشوط,الإنتخابات الرئاسية,شنقيط");
      expect(new URL(page.url()).pathname).toBe("/admin/articles/new");

      await saveAndExpectToast(page, "articles", "تم إنشاء المقال بنجاح!");
      const id = Number(await page.locator('[data-testid="content-row"]', { hasText: title }).getAttribute("data-id"));
      const item = (await staffItem(base, ctx.server.personas.editor.cookie, "articles", id)) as unknown as { url: string; tags: Tag[] };
      expect(item.tags.map((t) => t.name).sort()).toEqual(["الإنتخابات الرئاسية", "شنقيط", "نواكشوط"].sort());
      const nouakchott = item.tags.find((t) => t.name === "نواكشوط")!;
      const tagUrl = `/tags/${encodeURIComponent(nouakchott.slug)}`;

      // Its page: the article, the feed named in the head, no React in the browser.
      const tagPage = await publicPage(base, tagUrl);
      expect(tagPage.status).toBe(200);
      expect(tagPage.text).toContain(title);
      expect(tagPage.text).toContain(`href="${item.url}"`);
      expect(tagPage.text).toMatch(new RegExp(`<link rel="alternate" type="application/rss\\+xml"[^>]*href="${base}${tagUrl}/feed.xml"`));
      expect(tagPage.text).not.toContain("__reactRouterContext");
      // Its feed parses and lists the article, the tag as its category.
      const feed = await fetch(`${base}${tagUrl}/feed.xml`);
      expect(feed.headers.get("content-type")).toContain("application/rss+xml");
      const xml = await feed.text();
      expect(validateXml(xml)).toBe(true);
      const doc = parseXml(xml, { ignoreAttributes: false, attributeNamePrefix: "@", arrayMode: (name: string) => name === "item" }) as {
        rss: { channel: { title: string; link: string; item: { title: string; link: string; category: string }[] } };
      };
      expect(doc.rss.channel.title).toContain("نواكشوط");
      expect(doc.rss.channel.link).toBe(`${base}${tagUrl}`);
      expect(doc.rss.channel.item.find((i) => i.title === title)).toMatchObject({ link: `${base}${item.url}`, category: "نواكشوط" });

      // The article links its tags under the body, and names them in JSON-LD keywords.
      const detail = await publicPage(base, item.url);
      const links = /<nav[^>]*data-testid="item-tags"[\s\S]*?<\/nav>/.exec(detail.text)?.[0] ?? "";
      expect(links).toContain(`href="${tagUrl}"`);
      expect(links).toContain('rel="tag"');
      const ld = [...detail.text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]) as { keywords?: string });
      expect(
        ld
          .find((b) => b.keywords)
          ?.keywords?.split(", ")
          .sort(),
      ).toEqual(["الإنتخابات الرئاسية", "شنقيط", "نواكشوط"].sort());

      // In the sitemap; an unknown tag is the site's 404 page, its feed a 404.
      expect(await sitemapUrls(base)).toContain(`<loc>${base}${tagUrl}</loc>`);
      const unknown = await publicPage(base, "/tags/no-such-tag");
      expect(unknown.status).toBe(404);
      expect(unknown.text).toContain('data-testid="not-found"');
      expect((await fetch(`${base}/tags/no-such-tag/feed.xml`)).status).toBe(404);
    });
    await context.close();
  });

  it("renames, merges and deletes tags in the tags screen", async () => {
    const a = await newsWith("خبر عن ودان ومكتباتها", ["ودان", "مدينة وادان"]);
    await newsWith("خبر عن وادان اليوم", ["وادان"]);
    const { context, page } = await signedInPage(ctx.browser, ctx.server, ctx.server.personas.editor, { viewport: DESKTOP });
    await keepEvidence(page, "tags-screen", async () => {
      await open(page, `${base}/admin/tags`);
      await page.fill('[data-testid="tags-q"]', "وادان");
      await page.click('[data-testid="tags-search-submit"]');
      await page.waitForURL((url) => url.searchParams.get("q") === "وادان");
      // The address changes before the new list renders: wait for the list, not the address.
      await expect.poll(() => page.locator('[data-testid="tag-name"]').allTextContents()).toEqual(["وادان", "مدينة وادان"]);

      // Rename: name and slug; the old address answers 301 to the new one (decision 0144), which lists the item.
      const old = await tagNamed("ودان");
      await page.goto(`${base}/admin/tags?q=${encodeURIComponent("ودان")}`);
      await page.getByRole("button", { name: "تعديل الوسم ودان" }).click();
      const dialog = page.locator('[data-testid="tag-rename-dialog"]');
      await dialog.getByLabel("الاسم").fill("ودان التاريخية");
      await dialog.getByLabel("المعرّف في الرابط").fill("a b");
      await dialog.getByRole("button", { name: "حفظ" }).click();
      expect(await dialog.locator('[data-testid="tag-slug-error"]').textContent()).toBe("المعرّف حروف وأرقام تفصل بينها شرطات، ولا يكون أرقامًا فقط.");
      await dialog.getByLabel("المعرّف في الرابط").fill("Ouadane");
      await dialog.getByRole("button", { name: "حفظ" }).click();
      await expectToast(page, "حُفظ الوسم.");
      await page.locator('[data-testid="tag-row"][data-slug="ouadane"]').waitFor();
      expect((await publicPage(base, "/tags/ouadane")).text).toContain("خبر عن ودان ومكتباتها");
      const moved = await fetch(`${base}/tags/${encodeURIComponent(old.slug)}?page=1`, { redirect: "manual" });
      expect([moved.status, moved.headers.get("location")]).toEqual([301, "/tags/ouadane?page=1"]);
      // In the language asked for.
      const movedFr = await fetch(`${base}/fr/tags/${encodeURIComponent(old.slug)}`, { redirect: "manual" });
      expect([movedFr.status, movedFr.headers.get("location")]).toEqual([301, "/fr/tags/ouadane"]);

      // Merge three into «وادان»: the item that had two of them keeps one.
      await page.goto(`${base}/admin/tags`);
      for (const name of ["ودان التاريخية", "وادان", "مدينة وادان"]) await page.getByRole("checkbox", { name: `تحديد الوسم ${name}` }).check();
      await page.getByRole("button", { name: "دمج المحدد" }).click();
      const merge = page.locator('[data-testid="tag-merge-dialog"]');
      await merge.getByRole("radio", { name: /^وادان/ }).check();
      await merge.getByRole("button", { name: "دمج" }).click();
      await expectToast(page, "دُمجت الوسوم في وادان.");
      const row = (slug: string) => page.locator(`[data-testid="tag-row"][data-slug="${slug}"]`);
      await expect.poll(() => row("ouadane").count()).toBe(0);
      expect(await row("مدينة-وادان").count()).toBe(0);
      expect(await row("وادان").locator('[data-testid="tag-count"]').textContent()).toBe("عنصران");
      expect(await page.locator('[data-testid="tags-selected"]').textContent()).toBe("المحدد: 0");
      // Merged: the old addresses, the first one too, lead to the tag they went into.
      const into = `/tags/${encodeURIComponent("وادان")}`;
      for (const from of ["/tags/ouadane", `/tags/${encodeURIComponent(old.slug)}`, `/tags/${encodeURIComponent("مدينة-وادان")}`]) {
        const res = await fetch(base + from, { redirect: "manual" });
        expect([from, res.status, res.headers.get("location")]).toEqual([from, 301, into]);
      }
      const followed = await fetch(`${base}/en/tags/ouadane`);
      expect([followed.status, new URL(followed.url).pathname]).toEqual([200, `/en${into}`]);
      const itemA = (await staffItem(base, ctx.server.personas.editor.cookie, "news", a.id)) as unknown as { tags: Tag[] };
      expect(itemA.tags.map((t) => t.name)).toEqual(["وادان"]);

      // Delete, after the spec's question with the count of items.
      await page.getByRole("button", { name: "حذف الوسم وادان" }).click();
      const question = page.locator('[data-testid="tag-delete-dialog"]');
      expect(await question.locator("h2").textContent()).toBe("تأكيد الحذف");
      expect(await question.locator('[data-testid="tag-delete-text"]').textContent()).toContain("سيُزال من عنصران");
      await question.getByRole("button", { name: "حذف" }).click();
      await expectToast(page, "حُذف الوسم.");
      await expect.poll(() => row("وادان").count()).toBe(0);
      expect(((await staffItem(base, ctx.server.personas.editor.cookie, "news", a.id)) as unknown as { tags: Tag[] }).tags).toEqual([]);
      // Deleted: its old addresses are the site's 404 again, not a 301 to one.
      expect((await publicPage(base, "/tags/ouadane")).status).toBe(404);
    });
    await context.close();
  });

  it("answers its JSON API's refusals in the one error shape, and changes nothing", async () => {
    await newsWith("خبر عن أطار وتيشيت", ["أطار", "تيشيت"]);
    const atar = await tagNamed("اطار");
    const tichitt = await tagNamed("تيشيت");
    expect(atar).toMatchObject({ name: "أطار", count: 1 });

    expect((await call("GET", "/api/admin/tags", { who: null })).status).toBe(401);
    expect((await call("GET", "/api/admin/tags", { who: "reader" })).status).toBe(403);
    expect((await call("PATCH", `/api/admin/tags/${atar.id}`, { who: "reader", body: { name: "x" } })).status).toBe(403);
    const badQuery = await call("GET", "/api/admin/tags?per_page=500");
    expect(badQuery.status).toBe(400);
    expect(((await badQuery.json()) as ErrorBody).error.code).toBe("INVALID_QUERY");
    expect((await call("GET", `/api/admin/tags?q=${"ن".repeat(61)}`)).status).toBe(400);
    expect((await call("GET", "/api/admin/tags?sort=name")).status).toBe(400);

    const empty = await call("PATCH", `/api/admin/tags/${atar.id}`, { body: {} });
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as ErrorBody).error).toMatchObject({ code: "VALIDATION", fields: { name: "غيّر الاسم أو المعرّف." } });
    const long = (await (await call("PATCH", `/api/admin/tags/${atar.id}`, { body: { name: "ن".repeat(61), colour: "red" } })).json()) as ErrorBody;
    expect(long.error.fields).toEqual({ name: "اسم الوسم 60 حرفًا على الأكثر.", colour: "حقل غير معروف." });
    expect((await call("PATCH", `/api/admin/tags/${atar.id}`, { raw: "{not json" })).status).toBe(400);
    expect((await call("PATCH", `/api/admin/tags/${atar.id}`, { raw: JSON.stringify({ name: "ن".repeat(20_000) }) })).status).toBe(413);
    expect((await call("PATCH", "/api/admin/tags/999999", { body: { name: "لا شيء" } })).status).toBe(404);
    expect((await call("PATCH", "/api/admin/tags/abc", { body: { name: "لا شيء" } })).status).toBe(404);
    const taken = await call("PATCH", `/api/admin/tags/${atar.id}`, { body: { slug: tichitt.slug } });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as ErrorBody).error.code).toBe("SLUG_TAKEN");
    expect((await call("POST", "/api/admin/tags/merge", { body: { into: "1", from: [] } })).status).toBe(422);
    expect((await call("POST", "/api/admin/tags/merge", { body: { into: atar.id, from: [999_999] } })).status).toBe(404);
    expect(await (await call("GET", "/api/admin/tags/merge")).json()).toEqual({ max_from: 100 });
    expect((await call("PUT", "/api/admin/tags/merge", { body: {} })).status).toBe(405);
    expect((await call("PUT", "/api/admin/tags")).status).toBe(405);
    expect(await tagNamed("اطار")).toEqual(atar);

    // A rename into another tag's spelling is a merge, said so; a delete says how many items it left.
    const merged = (await (await call("PATCH", `/api/admin/tags/${tichitt.id}`, { body: { name: "اطار" } })).json()) as Tag & { merged_from: number[] };
    expect(merged).toMatchObject({ id: atar.id, name: "اطار", count: 1, merged_from: [tichitt.id] });
    expect(await (await call("DELETE", `/api/admin/tags/${atar.id}`)).json()).toEqual({ id: atar.id, deleted: true, items: 1 });
    expect((await call("DELETE", `/api/admin/tags/${atar.id}`)).status).toBe(404);
  });

  it("takes the existing tag a name is with or without «ال» on Enter, in Arabic and French, on a phone and a desktop (issue 46)", async () => {
    const first = await newsWith("خبر عن مخطوطات شنقيط", ["المخطوطات"]);
    const manuscripts = first.tags[0];
    // The JSON API too: both spellings on one item are one tag, the one that exists.
    const both = await newsWith("خبر عن مخطوطات وادان", ["مخطوطات", "المخطوطات"]);
    expect(both.tags.map((t) => t.id)).toEqual([manuscripts.id]);
    for (const [locale, viewport] of [
      ["ar", PHONE],
      ["fr", DESKTOP],
    ] as const) {
      const { context, page } = await signedInPage(ctx.browser, ctx.server, ctx.server.personas.editor, { viewport, locale });
      await keepEvidence(page, `tags-same-${locale}`, async () => {
        await open(page, `${base}/admin/news/new`);
        const input = page.locator('[data-testid="tags-input"]');
        await input.pressSequentially("مخطوطات");
        await page.locator('[data-testid="tag-suggestion"]', { hasText: "المخطوطات" }).waitFor();
        // No "new tag" is offered for a name a tag already is; Enter, no arrow pressed, takes that tag.
        expect(await page.locator('[data-testid="tag-suggestion-create"]').count()).toBe(0);
        await input.press("Enter");
        const chips = page.locator('[data-testid="tag-chip"]');
        await expect.poll(() => chips.allTextContents()).toEqual(["المخطوطات"]);
        // A new tag, then the same one without its article: not a second chip.
        await input.pressSequentially("التراث الشفهي");
        await page.locator('[data-testid="tag-suggestion-create"]').waitFor();
        await input.press("Enter");
        await input.pressSequentially("تراث الشفهي");
        await input.press("Enter");
        await expect.poll(() => chips.allTextContents()).toEqual(["المخطوطات", "التراث الشفهي"]);
        expect(await page.inputValue('[data-testid="input-tags"]')).toBe("المخطوطات,التراث الشفهي");
        expect(await page.locator('[data-testid="tags-announcement"]').textContent()).toContain("تراث الشفهي");
        expect(await mainViolations(page)).toEqual([]);
        expect(await horizontalOverflow(page)).toBe(0);
      });
      await context.close();
    }
  });

  it("keeps the tags screen accessible and within a phone's width, in Arabic and French", async () => {
    await newsWith("خبر عن النعمة وولاتة", ["النعمة", "ولاتة"]);
    for (const [locale, viewport] of [
      ["ar", PHONE],
      ["fr", DESKTOP],
    ] as const) {
      const { context, page } = await signedInPage(ctx.browser, ctx.server, ctx.server.personas.editor, { viewport, locale });
      await keepEvidence(page, `tags-a11y-${locale}`, async () => {
        await open(page, `${base}/admin/tags`);
        await page.locator('[data-testid="tag-row"]').first().waitFor();
        expect(await mainViolations(page)).toEqual([]);
        expect(await horizontalOverflow(page)).toBe(0);
        await page.locator('[data-testid="tag-delete"]').first().click();
        await page.locator('[data-testid="tag-delete-dialog"]').waitFor();
        expect(await mainViolations(page)).toEqual([]);

        // The form's tag input with its suggestions open.
        await open(page, `${base}/admin/news/new`);
        const input = page.locator('[data-testid="tags-input"]');
        await input.pressSequentially("ولا");
        await page.locator('[data-testid="tag-suggestion"]').first().waitFor();
        expect(await page.locator('[data-testid="tag-suggestion"]').first().textContent()).toContain("ولاتة");
        expect(await mainViolations(page)).toEqual([]);
        expect(await horizontalOverflow(page)).toBe(0);
      });
      await context.close();
    }
  });
});
