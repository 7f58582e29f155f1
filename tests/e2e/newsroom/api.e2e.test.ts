/**
 * The newsroom's JSON API against the built server: the contract of issue 10 (URLs, field names, the
 * 422 error shape with the spec's Arabic messages), permissions per persona with nothing changed on a
 * refusal, optimistic concurrency, and what readers see after each write (pages, sitemap, RSS).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categories } from "#server/db/schema.server.ts";
import { startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { ISSUE40_RIGHTS } from "#tests/helpers/auth.ts";
import { sitemapUrls } from "./support.ts";

type Item = { id: number; page_slug: string; status: string; url: string; updated_at: string; title: string };

describe("the newsroom JSON API", () => {
  let server: AuthServer<"admin" | "writer" | "reader">;
  let categoryId = 0;

  const call = (method: string, path: string, { cookie, body, origin = true }: { cookie?: string; body?: unknown; origin?: boolean } = {}) => {
    const headers: Record<string, string> = {};
    if (cookie) headers.cookie = cookie;
    if (origin) headers.origin = server.url;
    if (body !== undefined) headers["content-type"] = "application/json";
    return fetch(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: "manual" });
  };
  const as = (who: "admin" | "writer" | "reader") => server.personas[who].cookie;
  const newsItem = (extra: Record<string, unknown> = {}) => ({
    title: "افتتاح مهرجان مدائن التراث في شنقيط",
    excerpt: "افتتح اليوم مهرجان مدائن التراث في دورته الجديدة",
    content: "<p>افتتح اليوم في مدينة شنقيط مهرجان مدائن التراث بحضور جمهور كبير من الزوار.</p>",
    category_id: categoryId,
    priority: "high",
    location: "شنقيط",
    status: "published",
    ...extra,
  });

  beforeAll(async () => {
    server = await startAuthServer({
      personas: {
        admin: { email: "chief@newsroom.test", password: "Passw0rdA", role: "admin" },
        writer: { email: "writer@newsroom.test", password: "Passw0rdW", role: "editor", permissions: ["content.write", ...ISSUE40_RIGHTS] },
        reader: { email: "reader@newsroom.test", password: "Passw0rdR", role: "reader" },
      },
      prepare: async (db) => {
        const [c] = await db.insert(categories).values({ name: "ثقافة", slug: "culture", type: "culture" }).returning({ id: categories.id });
        categoryId = c.id;
      },
    });
  });
  afterAll(() => server?.stop());

  it("refuses anonymous and unprivileged calls, and changes nothing", async () => {
    expect((await call("GET", "/api/admin/news")).status).toBe(401);
    expect((await call("POST", "/api/admin/news", { body: newsItem() })).status).toBe(401);
    expect((await call("GET", "/api/admin/news", { cookie: as("reader") })).status).toBe(403);
    expect((await call("POST", "/api/admin/news", { cookie: as("reader"), body: newsItem() })).status).toBe(403);
    // The admin's own cookie from another site's page.
    const foreign = await fetch(server.url + "/api/admin/news", {
      method: "POST",
      headers: { cookie: as("admin"), origin: "https://evil.example", "content-type": "application/json" },
      body: JSON.stringify(newsItem()),
    });
    expect(foreign.status).toBe(403);
    const list = (await (await call("GET", "/api/admin/news", { cookie: as("admin") })).json()) as { total: number };
    expect(list.total).toBe(0);
  });

  it("creates a news item that readers see at once, with its id, slug, status and URL", async () => {
    const res = await call("POST", "/api/admin/news", { cookie: as("writer"), body: newsItem() });
    expect(res.status).toBe(201);
    const item = (await res.json()) as Item;
    expect(item).toMatchObject({ page_slug: "افتتاح-مهرجان-مدائن-التراث-في-شنقيط", status: "published", url: `/news/${encodeURIComponent(item.page_slug)}` });
    const page = await fetch(server.url + item.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("افتتاح مهرجان مدائن التراث في شنقيط");
    expect(await (await fetch(server.url + "/news")).text()).toContain("افتتاح مهرجان مدائن التراث في شنقيط");
    expect(await (await fetch(server.url + "/rss.xml")).text()).toContain("افتتاح مهرجان مدائن التراث في شنقيط");
  });

  it("answers bad input with 422 and the spec's messages, and bad bodies with 400 and 413", async () => {
    const res = await call("POST", "/api/admin/news", { cookie: as("admin"), body: { title: "قصير", content: "", excerpt: "" } });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; fields: Record<string, string> } };
    expect(body.error.code).toBe("VALIDATION");
    expect(body.error.fields).toMatchObject({
      title: "العنوان يجب أن يكون 5 أحرف على الأقل",
      content: "المحتوى يجب أن يكون 20 حرفًا على الأقل",
      excerpt: "المقتطف يجب أن يكون 10 أحرف على الأقل",
      category_id: "الرجاء اختيار فئة",
      priority: "الرجاء اختيار الأولوية",
    });
    const notJson = await fetch(server.url + "/api/admin/news", {
      method: "POST",
      headers: { cookie: as("admin"), origin: server.url, "content-type": "application/json" },
      body: "{not json",
    });
    expect(notJson.status).toBe(400);
    const huge = await call("POST", "/api/admin/news", { cookie: as("admin"), body: newsItem({ content: `<p>${"ن".repeat(1_100_000)}</p>` }) });
    expect(huge.status).toBe(413);
    expect((await call("GET", "/api/admin/news?page=0", { cookie: as("admin") })).status).toBe(400);
    expect((await call("GET", "/api/admin/gossip", { cookie: as("admin") })).status).toBe(404);
  });

  it("hides a draft from readers, and refuses the later of two edits of the same version", async () => {
    const created = (await (await call("POST", "/api/admin/news", { cookie: as("admin"), body: newsItem({ title: "خبر سيصبح مسودة قريبا" }) })).json()) as Item;
    const draft = await call("PATCH", `/api/admin/news/${created.id}`, { cookie: as("admin"), body: { status: "draft", updated_at: created.updated_at } });
    expect(draft.status).toBe(200);
    expect(((await draft.json()) as Item).status).toBe("draft");
    expect((await fetch(server.url + created.url)).status).toBe(404);
    const stale = await call("PATCH", `/api/admin/news/${created.id}`, {
      cookie: as("admin"),
      body: { title: "تعديل متأخر على نسخة قديمة", updated_at: created.updated_at },
    });
    expect(stale.status).toBe(409);
    const current = (await (await call("GET", `/api/admin/news/${created.id}`, { cookie: as("admin") })).json()) as Item;
    expect(current.title).toBe("خبر سيصبح مسودة قريبا");
  });

  it("answers a changed slug's old URL with a 301 to the new one", async () => {
    const created = (await (
      await call("POST", "/api/admin/news", { cookie: as("admin"), body: newsItem({ title: "عنوان قديم للخبر المعدل" }) })
    ).json()) as Item;
    const renamed = (await (
      await call("PATCH", `/api/admin/news/${created.id}`, { cookie: as("admin"), body: { page_slug: "عنوان-جديد-للخبر" } })
    ).json()) as Item;
    expect(renamed.page_slug).toBe("عنوان-جديد-للخبر");
    const old = await fetch(server.url + created.url, { redirect: "manual" });
    expect(old.status).toBe(301);
    expect(decodeURIComponent(old.headers.get("location") ?? "")).toContain("/news/عنوان-جديد-للخبر");
  });

  it("deletes only with the delete permission, and the item leaves pages, sitemap and RSS", async () => {
    const created = (await (await call("POST", "/api/admin/news", { cookie: as("admin"), body: newsItem({ title: "خبر سيحذف من الموقع" }) })).json()) as Item;
    // The sitemap is an index of files (decision 0143): the item is in one of them.
    expect(await sitemapUrls(server.url)).toContain(encodeURIComponent(created.page_slug));
    expect((await call("DELETE", `/api/admin/news/${created.id}`, { cookie: as("writer") })).status).toBe(403);
    expect((await fetch(server.url + created.url)).status).toBe(200);
    const gone = await call("DELETE", `/api/admin/news/${created.id}`, { cookie: as("admin") });
    expect(gone.status).toBe(200);
    expect((await fetch(server.url + created.url)).status).toBe(404);
    expect(await sitemapUrls(server.url)).not.toContain(encodeURIComponent(created.page_slug));
    expect(await (await fetch(server.url + "/rss.xml")).text()).not.toContain("خبر سيحذف من الموقع");
    expect(await (await fetch(server.url + "/news")).text()).not.toContain("خبر سيحذف من الموقع");
    expect((await call("DELETE", `/api/admin/news/${created.id}`, { cookie: as("admin") })).status).toBe(404);
  });

  it("lists with paging and a status filter, for every type", async () => {
    for (const segment of ["articles", "news", "coverage", "podcasts", "programs", "media"]) {
      const res = await call("GET", `/api/admin/${segment}?per_page=5&status=all`, { cookie: as("writer") });
      expect(res.status, segment).toBe(200);
      const body = (await res.json()) as { items: unknown[]; perPage: number; counts: Record<string, number> };
      expect(body.perPage).toBe(5);
      // A count per workflow state (decision 0138), and all.
      expect(Object.keys(body.counts).sort()).toEqual(["all", "approved", "changes_requested", "draft", "published", "review", "scheduled"]);
    }
  });
});
