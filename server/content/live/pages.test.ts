/**
 * What readers' pages read of a live coverage (issue 44) on a real database: the detail page's live part (entries
 * newest first without the pinned one, the pinned one, key events, the cursor, older entries by `?before=`), an
 * entry's own page, the ticker (live coverages, then breaking items of the last hours, in the page's language), the
 * entries JSON and /live.json routes, and the sitemap's last modification following the entries.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, isNull } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { validInput } from "#tests/helpers/content.ts";
import { categories, coverageEntries, coverages, news, profiles, user } from "#server/db/schema.server.ts";
import { setDatabaseHandle } from "#server/db/client.server.ts";
import { createItem } from "#server/content/newsroom/write.server.ts";
import { loadDetailPage } from "#server/content/detail-page.server.ts";
import { listSitemapEntries } from "#server/content/sitemap.server.ts";
import { publicUrl } from "#domain/content-types/index.ts";
import { LIVE_PAGE_SIZE, TICKER_MAX_ITEMS, type LiveEntriesAnswer, type TickerAnswer } from "#domain/live.ts";
import { loader as entriesLoader } from "#app/routes/public/coverage-entries.ts";
import { loader as tickerLoader } from "#app/routes/feeds/live-json.ts";
import { postEntry, setLive, type LiveActor } from "./entries.server.ts";
import { loadEntryPage, publishedLiveCoverage } from "./pages.server.ts";
import { tickerItems } from "./ticker.server.ts";

const editor: LiveActor = {
  id: "pages-editor",
  email: "zeinab@live.test",
  name: "زينب",
  profile: { role: "editor", isAdmin: false, permissions: ["content.write", "content.publish", "content.others"] },
};

/** The 404 a loader throws (React Router's `data(null, {status: 404})`). */
async function status(promise: Promise<unknown>): Promise<number> {
  return promise.then(
    () => 200,
    (thrown: { init?: { status?: number }; status?: number }) => thrown?.init?.status ?? thrown?.status ?? 500,
  );
}

async function getJson<T>(loader: (args: never) => Promise<Response>, url: string, params: Record<string, string> = {}) {
  const response = await loader({ request: new Request(`http://localhost${url}`), params, context: {} } as never);
  return { status: response.status, cache: response.headers.get("cache-control") ?? "", body: (await response.json()) as T };
}

for (const kind of testDatabaseKinds) {
  describe(`live pages (${kind})`, () => {
    let h: TestDatabase;
    let categoryId: number;
    let breakingId: number;

    async function coverage(title: string, { live = true, status = "published", titleFr }: { live?: boolean; status?: string; titleFr?: string } = {}) {
      const { id } = await createItem(
        h.db,
        "coverage",
        { ...validInput("coverage", categoryId, title), status, ...(titleFr ? { title_fr: titleFr } : {}) },
        editor,
      );
      if (live) await setLive(h.db, id, true, editor);
      const [{ slug }] = await h.db.select({ slug: coverages.pageSlug }).from(coverages).where(eq(coverages.id, id));
      return { id, slug };
    }

    beforeAll(async () => {
      h = await createTestDatabase(kind);
      setDatabaseHandle(h);
      await h.db.insert(user).values({ id: editor.id, name: editor.name, email: editor.email });
      await h.db.insert(profiles).values({ id: editor.id, role: "editor", fullName: editor.name });
      [{ id: categoryId }] = await h.db.insert(categories).values({ name: "سياسة", slug: "politics", type: "news" }).returning({ id: categories.id });
      [{ id: breakingId }] = await h.db.insert(categories).values({ name: "عاجل", slug: "breaking", type: "news" }).returning({ id: categories.id });
    });
    afterAll(async () => {
      setDatabaseHandle(undefined);
      await h?.drop();
    });

    it("gives a live coverage's page its entries, pinned entry, key events, cursor and older entries", async () => {
      const { id, slug } = await coverage("فرز الأصوات مباشرة");
      const posted: number[] = [];
      for (let i = 1; i <= LIVE_PAGE_SIZE + 2; i++) {
        const { entry } = await postEntry(h.db, id, { body: `<p>النتيجة رقم ${i}</p>`, key_event: i % 20 === 0, pinned: i === 3 }, editor);
        posted.push(entry.id);
      }
      const page = await loadDetailPage(h.db, "coverage", slug);
      const live = page.live!;
      expect(live.live).toBe(true);
      expect(live.state.started_at).not.toBeNull();
      expect(live.pinned?.id).toBe(posted[2]);
      // Newest first, a page of them, the pinned one (among the newest) shown apart.
      expect(live.entries[0].id).toBe(posted.at(-1));
      expect(live.entries.some((e) => e.pinned)).toBe(false);
      expect(live.entries).toHaveLength(LIVE_PAGE_SIZE - 1);
      expect(live.keyEvents.map((e) => e.id)).toEqual([posted[39], posted[19]]);
      expect(live.cursor).toBeGreaterThanOrEqual(posted.at(-1)!);
      expect(live.streamPath).toBe(`${page.url}/stream`);
      expect(live.entriesPath).toBe(`${page.url}/entries`);
      expect(live.olderBefore).toBe(posted[2]);

      const older = (await loadDetailPage(h.db, "coverage", slug, { searchParams: new URLSearchParams({ before: String(live.olderBefore) }) })).live!;
      expect(older.entries.map((e) => e.id)).toEqual([posted[1], posted[0]]);
      expect(older.olderBefore).toBeNull();
      expect(older.cursor).toBe(live.cursor);

      // A new entry: the page shows it at once (the read cache was told).
      const { entry } = await postEntry(h.db, id, { body: "<p>النتيجة النهائية</p>" }, editor);
      expect((await loadDetailPage(h.db, "coverage", slug)).live!.entries[0].id).toBe(entry.id);

      // The entry's own page; a missing entry, or one of another coverage, is a 404.
      const own = await loadEntryPage(h.db, slug, String(entry.id));
      expect(own.entry.id).toBe(entry.id);
      expect(own.coverage).toMatchObject({ id, url: page.url });
      expect(await status(loadEntryPage(h.db, slug, "999999999"))).toBe(404);
      expect(await status(loadEntryPage(h.db, slug, "abc"))).toBe(404);
      const other = await coverage("تغطية أخرى مباشرة");
      expect(await status(loadEntryPage(h.db, other.slug, String(entry.id)))).toBe(404);
    });

    it("leaves a coverage never live as it was, and keeps drafts' entries from readers", async () => {
      const never = await coverage("تغطية عادية", { live: false });
      expect((await loadDetailPage(h.db, "coverage", never.slug)).live).toBeUndefined();
      expect(await publishedLiveCoverage(h.db, never.slug)).toBeNull();
      const draft = await coverage("مسودة مباشرة", { status: "draft" });
      expect(await publishedLiveCoverage(h.db, draft.slug)).toBeNull();
      expect((await getJson(entriesLoader, `/coverage/${draft.slug}/entries`, { slug: draft.slug })).status).toBe(404);
    });

    it("answers the entries JSON after a cursor, cacheable, and refuses bad queries", async () => {
      const { id, slug } = await coverage("قمة الساحل مباشرة");
      const first = (await postEntry(h.db, id, { body: "<p>الافتتاح</p>" }, editor)).entry;
      const all = await getJson<LiveEntriesAnswer>(entriesLoader, `/coverage/${slug}/entries`, { slug });
      expect(all.status).toBe(200);
      expect(all.body.entries.map((e) => e.id)).toEqual([first.id]);
      expect(all.body.cursor).toBe(first.version);
      expect(all.body.started_at).not.toBeNull();
      expect(all.body.ended_at).toBeNull();
      expect(all.body.retry_ms).toBeGreaterThanOrEqual(1000);
      expect(all.cache).toMatch(/^public, max-age=\d, s-maxage=/);

      const unchanged = await getJson<LiveEntriesAnswer>(entriesLoader, `/fr/coverage/${slug}/entries?after=${first.version}`, { slug });
      expect(unchanged.body).toMatchObject({ entries: [], deleted: [], cursor: first.version });
      const second = (await postEntry(h.db, id, { body: "<p>الجلسة الثانية</p>" }, editor)).entry;
      const after = await getJson<LiveEntriesAnswer>(entriesLoader, `/coverage/${slug}/entries?after=${first.version}`, { slug });
      expect(after.body.entries.map((e) => e.id)).toEqual([second.id]);
      expect(after.body.cursor).toBe(second.version);
      const before = await getJson<LiveEntriesAnswer>(entriesLoader, `/coverage/${slug}/entries?before=${second.id}`, { slug });
      expect(before.body.entries.map((e) => e.id)).toEqual([first.id]);

      for (const query of ["?after=x", "?before=-1", `?after=1&before=2`, "?page=2", "?after=1&after=2"]) {
        expect((await getJson(entriesLoader, `/coverage/${slug}/entries${query}`, { slug })).status, query).toBe(400);
      }
      expect((await getJson(entriesLoader, `/coverage/nothing-here/entries`, { slug: "nothing-here" })).status).toBe(404);
    });

    it("lists live coverages, then breaking items of the last hours, in the page's language", async () => {
      // The earlier tests' coverages end: this one is the only live one.
      await h.db.update(coverages).set({ liveEndedAt: new Date() }).where(isNull(coverages.liveEndedAt));
      const live = await coverage("تغطية الانتخابات مباشرة", { titleFr: "Élections en direct" });
      const { id: urgentId } = await createItem(h.db, "news", { ...validInput("news", categoryId, "خبر عاجل عن الأمطار"), urgent: true }, editor);
      await createItem(h.db, "news", { ...validInput("news", breakingId, "خبر في قسم العاجل") }, editor);
      await createItem(h.db, "news", validInput("news", categoryId, "خبر عادي لا يظهر"), editor);
      const { id: oldId } = await createItem(h.db, "news", { ...validInput("news", categoryId, "خبر عاجل قديم جدا"), urgent: true }, editor);
      await h.db
        .update(news)
        .set({ publishDate: new Date(Date.now() - 7 * 3_600_000) })
        .where(eq(news.id, oldId));

      const ar = await tickerItems(h.db, "ar");
      expect(ar[0]).toEqual({ kind: "live", title: "تغطية الانتخابات مباشرة", url: publicUrl("coverage", live.slug) });
      const titles = ar.map((i) => i.title);
      expect(titles).toContain("خبر عاجل عن الأمطار");
      expect(titles).toContain("خبر في قسم العاجل");
      expect(titles).not.toContain("خبر عادي لا يظهر");
      expect(titles).not.toContain("خبر عاجل قديم جدا");
      expect(ar.length).toBeLessThanOrEqual(TICKER_MAX_ITEMS);
      expect(ar.filter((i) => i.kind === "breaking").every((i) => i.url.startsWith("/"))).toBe(true);
      expect(urgentId).toBeGreaterThan(0);

      const fr = await getJson<TickerAnswer>(tickerLoader, "/fr/live.json");
      expect(fr.status).toBe(200);
      expect(fr.body.items[0]).toEqual({ kind: "live", title: "Élections en direct", url: `/fr${publicUrl("coverage", live.slug)}` });
      expect(fr.body.retry_ms).toBeGreaterThanOrEqual(1000);
      expect((await getJson(tickerLoader, "/live.json?x=1")).status).toBe(400);
    });

    it("moves a live coverage's sitemap date with its latest entry", async () => {
      const { id, slug } = await coverage("تغطية السيل مباشرة");
      await h.db
        .update(coverages)
        .set({ updatedAt: new Date("2026-01-01T00:00:00Z"), publishDate: new Date("2026-01-01T00:00:00Z") })
        .where(eq(coverages.id, id));
      const { entry } = await postEntry(h.db, id, { body: "<p>ارتفاع منسوب المياه</p>" }, editor);
      const [row] = await h.db.select({ at: coverageEntries.createdAt }).from(coverageEntries).where(eq(coverageEntries.id, entry.id));
      const listed = (await listSitemapEntries(h.db, { limit: 1000 })).find((e) => e.path === publicUrl("coverage", slug));
      expect(listed?.lastModified).toBeInstanceOf(Date);
      expect(listed!.lastModified.getTime()).toBe(new Date(row.at).getTime());
    });
  });
}
