/**
 * Live coverage over plain HTTP against the built server (issue 44, docs/api.md): the admin API's contract exactly
 * (start and end, post with 201 and an id, a resent post answered with the same entry, edit, delete, bad input,
 * who may), the readers' JSON after a cursor (newest first, deletions, cursor, the headers a CDN keeps it by), and
 * the stream (text/event-stream: `retry:` first, the changes after Last-Event-ID, each change as it happens,
 * heartbeats, a reader who leaves frees their slot, a cap past which the client is told to poll), per language.
 * The browser's side (the page, the desk) is tested beside this file by the reader's and the desk's tests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LiveEntriesAnswer, LiveEntry, LiveState, TickerAnswer } from "#domain/live.ts";
import { categories } from "#server/db/schema.server.ts";
import { startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { validInput } from "#tests/helpers/content.ts";
import { dataOf, metricValue, openStream, type SseStream } from "./sse.ts";

type Who = "chief" | "desk" | "writer" | "reader";
type Coverage = { id: number; url: string; page_slug: string; updated_at: string };
type LiveAnswer = { id: number; live: boolean; started_at: string | null; ended_at: string | null };
type AdminEntries = LiveState & { live: boolean; cursor: number; entries: LiveEntry[]; deleted: number[] };
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

/** Small enough that a heartbeat comes during a test, and that the cap is reached with a handful of streams. */
const HEARTBEAT_MS = 1000;
const MAX_STREAMS = 6;
const CHIEF_NAME = "مريم بنت أحمد";
const DESK_NAME = "سيدي ولد محمد";
const ARABIC = /[\u0600-\u06FF]/;

describe("live coverage over HTTP: the admin API, the readers' JSON and the stream", () => {
  let server: AuthServer<Who>;
  let categoryId = 0;
  const opened: SseStream[] = [];

  const call = (method: string, path: string, { who, body, origin }: { who?: Who; body?: unknown; origin?: string } = {}) => {
    const headers: Record<string, string> = { origin: origin ?? server.url };
    if (who) headers.cookie = server.personas[who].cookie;
    if (body !== undefined) headers["content-type"] = "application/json";
    return fetch(server.url + path, { method, headers, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
  };
  const ok = async <T>(res: Response, status = 200): Promise<T> => {
    expect(res.status, `${res.url}: ${await res.clone().text()}`).toBe(status);
    return (await res.json()) as T;
  };
  const newCoverage = async (title: string, extra: Record<string, unknown> = {}) =>
    ok<Coverage>(await call("POST", "/api/admin/coverage", { who: "chief", body: { ...validInput("coverage", categoryId, title), ...extra } }), 201);
  const setLive = (id: number, live: boolean, who: Who = "chief") => call("PATCH", `/api/admin/coverage/${id}`, { who, body: { live } });
  const liveCoverage = async (title: string) => {
    const coverage = await newCoverage(title);
    await ok<LiveAnswer>(await setLive(coverage.id, true));
    return coverage;
  };
  const post = (coverageId: number, body: Record<string, unknown>, who: Who = "chief") =>
    call("POST", `/api/admin/coverage/${coverageId}/entries`, { who, body });
  const postOk = async (coverageId: number, body: Record<string, unknown>, who: Who = "chief") =>
    ok<{ id: number; entry: LiveEntry }>(await post(coverageId, body, who), 201);
  const edit = (coverageId: number, entryId: number, body: Record<string, unknown>) =>
    call("PATCH", `/api/admin/coverage/${coverageId}/entries/${entryId}`, { who: "chief", body });
  const adminEntries = async (coverageId: number, after?: number) =>
    ok<AdminEntries>(await call("GET", `/api/admin/coverage/${coverageId}/entries${after === undefined ? "" : `?after=${after}`}`, { who: "chief" }));
  const readerJson = (path: string) => fetch(server.url + path, { headers: { "accept-encoding": "gzip" } });
  const stream = async (path: string, headers: Record<string, string> = {}) => {
    const s = await openStream(server.url + path, headers);
    opened.push(s);
    return s;
  };
  const openStreams = async () => metricValue(await (await fetch(`${server.url}/metrics`)).text(), "sahara_live_streams");
  const badInput = async (res: Response, field?: string) => {
    expect(res.status, await res.clone().text()).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const { error } = (await res.json()) as ErrorBody;
    expect(error.code).toBeTruthy();
    // The back-office's language: the spec's Arabic, for the field that is wrong when there is one.
    const said = field ? (error.fields?.[field] ?? error.message) : error.message;
    expect(said, JSON.stringify(error)).toMatch(ARABIC);
    return error;
  };

  beforeAll(async () => {
    server = await startAuthServer({
      personas: {
        chief: { email: "chief@live.test", password: "Passw0rdA", role: "admin", name: CHIEF_NAME },
        desk: {
          email: "desk@live.test",
          password: "Passw0rdD",
          role: "editor",
          name: DESK_NAME,
          permissions: ["content.write", "content.publish", "content.others"],
        },
        // Writes and submits, but publishes nothing: an entry is public the moment it is posted.
        writer: { email: "writer@live.test", password: "Passw0rdW", role: "writer", permissions: ["content.write"] },
        reader: { email: "reader@live.test", password: "Passw0rdR", role: "reader" },
      },
      prepare: async (db) => {
        const [c] = await db
          .insert(categories)
          .values({ name: "سياسة", nameFr: "Politique", slug: "politics", type: "politics" })
          .returning({ id: categories.id });
        categoryId = c.id;
      },
      env: { LIVE_HEARTBEAT_MS: String(HEARTBEAT_MS), LIVE_MAX_STREAMS: String(MAX_STREAMS), LOG_LEVEL: "warn" },
    });
  });
  afterAll(async () => {
    for (const s of opened) s.close();
    await server?.stop();
  });

  it("refuses the anonymous, a writer without the right to publish and another site's page, changing nothing", async () => {
    const coverage = await newCoverage("تغطية لا يبدؤها إلا من يملك حق النشر");
    expect((await call("PATCH", `/api/admin/coverage/${coverage.id}`, { body: { live: true } })).status).toBe(401);
    expect((await setLive(coverage.id, true, "reader")).status).toBe(403);
    expect((await setLive(coverage.id, true, "writer")).status).toBe(403);
    const foreign = await call("PATCH", `/api/admin/coverage/${coverage.id}`, { who: "chief", body: { live: true }, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await adminEntries(coverage.id)).started_at).toBeNull();

    await ok<LiveAnswer>(await setLive(coverage.id, true));
    const entry = { body: "<p>لا يُنشر هذا السطر</p>" };
    expect((await call("POST", `/api/admin/coverage/${coverage.id}/entries`, { body: entry })).status).toBe(401);
    expect((await call("GET", `/api/admin/coverage/${coverage.id}/entries`)).status).toBe(401);
    expect((await post(coverage.id, entry, "reader")).status).toBe(403);
    expect((await post(coverage.id, entry, "writer")).status).toBe(403);
    expect((await call("POST", `/api/admin/coverage/${coverage.id}/entries`, { who: "chief", body: entry, origin: "https://evil.example" })).status).toBe(403);
    const posted = await postOk(coverage.id, { body: "<p>سطر يملكه المحرر الأول</p>" });
    const writerEdit = await call("PATCH", `/api/admin/coverage/${coverage.id}/entries/${posted.id}`, { who: "writer", body: { body: "<p>تعديل ممنوع</p>" } });
    expect(writerEdit.status).toBe(403);
    const writerDelete = await call("DELETE", `/api/admin/coverage/${coverage.id}/entries/${posted.id}`, { who: "writer" });
    expect(writerDelete.status).toBe(403);
    const anonymousDelete = await call("DELETE", `/api/admin/coverage/${coverage.id}/entries/${posted.id}`);
    expect(anonymousDelete.status).toBe(401);
    const list = await adminEntries(coverage.id);
    expect(list.entries.map((e) => e.id)).toEqual([posted.id]);
  });

  it("starts and ends a coverage with PATCH {live}, keeping the start of one that is already live", async () => {
    const coverage = await newCoverage("تغطية مباشرة لإعلان نتائج الانتخابات");
    const before = await adminEntries(coverage.id);
    expect(before).toMatchObject({ live: false, started_at: null, ended_at: null, entries: [], deleted: [] });
    // Not live yet: nothing may be posted.
    await badInput(await post(coverage.id, { body: "<p>مبكر جداً</p>" }));

    const started = await ok<LiveAnswer>(await setLive(coverage.id, true));
    expect(started).toEqual({ id: coverage.id, live: true, started_at: expect.any(String) as string, ended_at: null });
    expect(Number.isNaN(Date.parse(started.started_at!))).toBe(false);
    expect(await ok<LiveAnswer>(await setLive(coverage.id, true))).toEqual(started);

    const ended = await ok<LiveAnswer>(await setLive(coverage.id, false));
    expect(ended).toMatchObject({ id: coverage.id, live: false, started_at: started.started_at });
    expect(Date.parse(ended.ended_at!)).toBeGreaterThanOrEqual(Date.parse(started.started_at!));
    expect((await post(coverage.id, { body: "<p>بعد النهاية</p>" })).status).toBe(409);

    // Started again: a new live period.
    const again = await ok<LiveAnswer>(await setLive(coverage.id, true));
    expect(again).toMatchObject({ live: true, ended_at: null });
    expect(Date.parse(again.started_at!)).toBeGreaterThanOrEqual(Date.parse(ended.ended_at!));

    expect((await setLive(999_999, true)).status).toBe(404);
    await badInput(await call("PATCH", `/api/admin/coverage/${coverage.id}`, { who: "chief", body: { live: "yes" } }));
  });

  it("posts an entry (201 with its id), answers a resent post with the same entry, edits, pins and deletes", async () => {
    const coverage = await liveCoverage("تغطية مباشرة لقمة نواكشوط");
    const first = await postOk(coverage.id, { body: "<p>وصول الوفود إلى قصر المؤتمرات</p>", key_event: true, client_key: "desk-1-a" });
    expect(first.id).toBeGreaterThan(0);
    expect(first.entry).toMatchObject({
      id: first.id,
      edited_at: null,
      author: CHIEF_NAME,
      key_event: true,
      pinned: false,
      image: null,
      video_id: null,
      embed_url: null,
      url: `${coverage.url}/entries/${first.id}`,
    });
    expect(first.entry.body).toContain("وصول الوفود إلى قصر المؤتمرات");
    expect(first.entry.version).toBeGreaterThanOrEqual(first.id);
    expect(Number.isNaN(Date.parse(first.entry.at))).toBe(false);

    // The composer lost the answer and sends the same post again: the same entry, no second one.
    const replay = await post(coverage.id, { body: "<p>وصول الوفود إلى قصر المؤتمرات</p>", key_event: true, client_key: "desk-1-a" });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual(first);

    // A second editor posts to the same coverage at the same time.
    const [second, third] = await Promise.all([
      postOk(coverage.id, { body: "<p>كلمة الرئيس في الجلسة الافتتاحية</p>", client_key: "desk-2-a" }, "desk"),
      postOk(coverage.id, { body: "<p>بيان مشترك مرتقب في المساء</p>", pinned: true }),
    ]);
    expect(second.entry.author).toBe(DESK_NAME);
    expect(third.entry.pinned).toBe(true);

    const edited = await ok<LiveEntry>(await edit(coverage.id, second.id, { body: "<p>كلمة الرئيس في الجلسة الافتتاحية للقمة</p>" }));
    expect(edited).toMatchObject({ id: second.id, author: DESK_NAME });
    expect(edited.body).toContain("للقمة");
    expect(edited.edited_at).not.toBeNull();
    expect(edited.version).toBeGreaterThan(second.entry.version);
    // Pinning another entry unpins the first; a pin is not an edit of the text.
    const pinned = await ok<LiveEntry>(await edit(coverage.id, first.id, { pinned: true }));
    expect(pinned).toMatchObject({ pinned: true, edited_at: null });
    const listed = await adminEntries(coverage.id);
    // Newest first by id; the two posted at once drew theirs in whichever order they took the coverage's row.
    expect(listed.entries.map((e) => e.id)).toEqual([third.id, second.id, first.id].sort((x, y) => y - x));
    expect(listed.entries.filter((e) => e.pinned).map((e) => e.id)).toEqual([first.id]);

    const gone = await call("DELETE", `/api/admin/coverage/${coverage.id}/entries/${third.id}`, { who: "chief" });
    expect(await ok(gone)).toEqual({ id: third.id, deleted: true });
    const after = await adminEntries(coverage.id, listed.cursor);
    expect(after.deleted).toEqual([third.id]);
    expect(after.entries).toEqual([]);
    expect((await adminEntries(coverage.id)).entries.map((e) => e.id)).toEqual([second.id, first.id]);
    expect((await call("DELETE", `/api/admin/coverage/${coverage.id}/entries/${third.id}`, { who: "chief" })).status).toBe(404);
    expect((await edit(coverage.id, 999_999, { body: "<p>لا وجود له</p>" })).status).toBe(404);
    // An entry of one coverage is not reached through another's address.
    const other = await liveCoverage("تغطية أخرى لا علاقة لها");
    expect((await edit(other.id, first.id, { body: "<p>عبر تغطية أخرى</p>" })).status).toBe(404);
  });

  it("answers bad input with 4xx and messages, changing nothing", async () => {
    const coverage = await liveCoverage("تغطية لاختبار المدخلات الخاطئة");
    await badInput(await post(coverage.id, { body: "" }), "body");
    await badInput(await post(coverage.id, { body: "<p>   </p>" }), "body");
    await badInput(await post(coverage.id, { body: `<p>${"ن".repeat(5001)}</p>` }), "body");
    await badInput(await post(coverage.id, { key_event: true }), "body");
    await badInput(await post(coverage.id, { body: "<p>منشور مع رابط غريب</p>", embed_url: "http://tracker.example/x" }), "embed_url");
    await badInput(await post(coverage.id, { body: "<p>منشور مع فيديو مجهول</p>", video_id: "no-such-video" }), "video_id");
    await badInput(await post(coverage.id, { body: "<p>منشور مع صورة من خارج المكتبة</p>", image: "https://elsewhere.example/a.jpg" }), "image");
    await badInput(await post(coverage.id, { body: "<p>منشور بمفتاح طويل</p>", client_key: "k".repeat(65) }), "client_key");
    await badInput(await post(coverage.id, { body: "<p>منشور بقيمة خاطئة</p>", key_event: "yes" }));
    const notJson = await call("POST", `/api/admin/coverage/${coverage.id}/entries`, { who: "chief", body: "{not json" });
    expect(notJson.status).toBe(400);
    expect((await post(999_999, { body: "<p>تغطية مجهولة</p>" })).status).toBe(404);
    const huge = await post(coverage.id, { body: `<p>${"ن".repeat(1_100_000)}</p>` });
    expect([400, 413]).toContain(huge.status);
    // Script never reaches readers.
    const cleaned = await postOk(coverage.id, { body: '<p onclick="alert(1)">نص <script>alert(1)</script>سليم</p>' });
    expect(cleaned.entry.body).not.toMatch(/script|onclick/);
    expect(cleaned.entry.body).toContain("سليم");
    expect((await adminEntries(coverage.id)).entries.map((e) => e.id)).toEqual([cleaned.id]);
  });

  it("gives readers the entries after a cursor as JSON a CDN can keep: newest first, with the deletions", async () => {
    const coverage = await liveCoverage("تغطية مباشرة لمباراة المرابطون");
    const path = `${coverage.url}/entries`;
    const a = await postOk(coverage.id, { body: "<p>انطلاق المباراة</p>" });
    const b = await postOk(coverage.id, { body: "<p>هدف أول للمرابطين</p>", key_event: true });

    const res = await readerJson(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    // Public: a shared cache keeps it (and is purged by its keys when an entry changes); browsers only briefly.
    const cacheControl = res.headers.get("cache-control") ?? "";
    expect(cacheControl).toMatch(/public/);
    expect(cacheControl).toMatch(/s-maxage=\d+/);
    expect(Number(/(?:^|[ ,])max-age=(\d+)/.exec(cacheControl)?.[1])).toBeLessThanOrEqual(10);
    expect(res.headers.get("surrogate-key")?.split(" ")).toContain("entries");
    expect(res.headers.get("set-cookie")).toBeNull();
    const first = (await res.json()) as LiveEntriesAnswer;
    expect(first.entries.map((e) => e.id)).toEqual([b.id, a.id]);
    expect(first).toMatchObject({ started_at: expect.any(String) as string, ended_at: null, deleted: [], cursor: b.entry.version });
    expect(first.retry_ms).toBeGreaterThan(0);
    expect(first.entries[0]).toEqual(b.entry);

    // Nothing new: an empty answer with the same cursor.
    const idle = (await (await readerJson(`${path}?after=${first.cursor}`)).json()) as LiveEntriesAnswer;
    expect(idle).toMatchObject({ entries: [], deleted: [], cursor: first.cursor });

    const c = await postOk(coverage.id, { body: "<p>بطاقة صفراء في الدقيقة الثلاثين</p>" });
    const edited = await ok<LiveEntry>(await edit(coverage.id, a.id, { body: "<p>انطلاق المباراة أمام جمهور غفير</p>" }));
    await ok(await call("DELETE", `/api/admin/coverage/${coverage.id}/entries/${b.id}`, { who: "chief" }));
    const changes = (await (await readerJson(`${path}?after=${first.cursor}`)).json()) as LiveEntriesAnswer;
    expect(changes.entries.map((e) => e.id)).toEqual([c.id, a.id]);
    expect(changes.entries[1]).toEqual(edited);
    expect(changes.deleted).toEqual([b.id]);
    expect(changes.cursor).toBeGreaterThan(edited.version);
    // The id of an entry is a cursor too: what came after it.
    const afterA = (await (await readerJson(`${path}?after=${a.id}`)).json()) as LiveEntriesAnswer;
    expect(afterA.entries.map((e) => e.id)).toContain(c.id);

    // The same in French, under its prefix.
    const fr = await readerJson(`/fr${path}?after=${first.cursor}`);
    expect(fr.status).toBe(200);
    expect(((await fr.json()) as LiveEntriesAnswer).entries.map((e) => e.id)).toEqual([c.id, a.id]);

    for (const bad of ["after=abc", "after=-1", "after=1.5", `after=1&before=${c.id}`, "before=x"]) {
      expect((await readerJson(`${path}?${bad}`)).status, bad).toBe(400);
    }
    expect((await readerJson(`${path}?before=${c.id}`)).status).toBe(200);

    // A coverage readers cannot see, or that was never live, has no entries to show.
    const draft = await newCoverage("تغطية في المسودة لم تنشر بعد", { status: "draft" });
    await ok<LiveAnswer>(await setLive(draft.id, true));
    await postOk(draft.id, { body: "<p>سطر في تغطية غير منشورة</p>" });
    const draftUrl = (await adminEntries(draft.id)).entries[0].url.replace(/\/entries\/\d+$/, "");
    expect((await readerJson(`${draftUrl}/entries`)).status).toBe(404);
    const never = await newCoverage("تغطية منشورة لم تبدأ مباشرة قط");
    expect((await readerJson(`${never.url}/entries`)).status).toBe(404);
    expect((await readerJson("/coverage/no-such-coverage/entries")).status).toBe(404);
  });

  it("streams: retry first, then the changes after Last-Event-ID, then each change as it happens, with heartbeats", async () => {
    const coverage = await liveCoverage("تغطية مباشرة لعاصفة رملية في نواذيبو");
    const first = await postOk(coverage.id, { body: "<p>رياح قوية على الساحل</p>" });
    const second = await postOk(coverage.id, { body: "<p>إغلاق الميناء مؤقتاً</p>", key_event: true });

    const s = await stream(`${coverage.url}/stream`);
    expect(s.status).toBe(200);
    expect(s.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(s.headers.get("cache-control")).toMatch(/no-store/);
    expect(s.headers.get("set-cookie")).toBeNull();
    await s.waitForComment((c) => c === "ping", "heartbeat");
    expect(s.raw()).toMatch(/^retry: \d+\n/);
    expect(s.retries[0]).toBeGreaterThan(0);
    // A reader who has the page asks from its cursor; a bare connection gets only what happens from now.
    expect(s.events.filter((e) => e.event !== "status")).toEqual([]);

    const third = await postOk(coverage.id, { body: "<p>تحذير من الأرصاد الجوية</p>" });
    const arrived = await s.waitFor((e) => e.event === "entry", "the new entry's event");
    expect(arrived.id).toBe(String(third.entry.version));
    expect(dataOf<LiveEntry>(arrived)).toEqual(third.entry);

    const edited = await ok<LiveEntry>(await edit(coverage.id, first.id, { body: "<p>رياح قوية جداً على الساحل</p>" }));
    const editEvent = await s.waitFor((e) => e.event === "edit", "the edit's event");
    expect(editEvent.id).toBe(String(edited.version));
    expect(dataOf<LiveEntry>(editEvent)).toEqual(edited);

    await ok(await call("DELETE", `/api/admin/coverage/${coverage.id}/entries/${second.id}`, { who: "chief" }));
    const deleteEvent = await s.waitFor((e) => e.event === "delete", "the deletion's event");
    expect(dataOf<{ id: number }>(deleteEvent)).toEqual({ id: second.id });
    expect(Number(deleteEvent.id)).toBeGreaterThan(edited.version);

    // A reader who saw up to the first entry reconnects (the browser sends Last-Event-ID): the rest, in order.
    const resumed = await stream(`${coverage.url}/stream`, { "last-event-id": String(first.entry.version) });
    const replayedDelete = await resumed.waitFor((e) => e.event === "delete", "the replayed deletion");
    expect(dataOf<{ id: number }>(replayedDelete)).toEqual({ id: second.id });
    const replayed = resumed.events.filter((e) => e.event === "entry" || e.event === "edit").map((e) => dataOf<LiveEntry>(e).id);
    expect(replayed.sort()).toEqual([first.id, third.id].sort());
    // Events that carry an id carry a version after the cursor; the stream leaves the reader at the newest change
    // (a deletion's, here), so that its next reconnection replays nothing twice.
    const ids = resumed.events.filter((e) => e.id !== null && e.event !== "status").map((e) => Number(e.id));
    expect(ids.every((id) => id > first.entry.version)).toBe(true);
    expect(resumed.lastEventId()).toBe(String((await adminEntries(coverage.id, first.entry.version)).cursor));
    // The same from ?after= (the page's own cursor, first connection).
    const fromPage = await stream(`${coverage.url}/stream?after=${edited.version}`);
    await fromPage.waitFor((e) => e.event === "delete", "the deletion after the page's cursor");
    expect(fromPage.events.map((e) => e.event).filter((e) => e !== "status")).toEqual(["delete"]);

    // The end of the coverage reaches everyone connected.
    const ended = await ok<LiveAnswer>(await setLive(coverage.id, false));
    for (const reader of [s, resumed, fromPage]) {
      const status = await reader.waitFor((e) => e.event === "status", "the status event");
      expect(dataOf<LiveState>(status)).toEqual({ started_at: ended.started_at, ended_at: ended.ended_at });
    }
    for (const reader of [s, resumed, fromPage]) reader.close();
  });

  it("streams per language, and the French address answers the same events", async () => {
    const coverage = await liveCoverage("تغطية مباشرة لمهرجان مدائن التراث");
    const fr = await stream(`/fr${coverage.url}/stream`);
    const en = await stream(`/en${coverage.url}/stream`);
    expect(fr.status).toBe(200);
    expect(en.status).toBe(200);
    await Promise.all([fr.started(), en.started()]);
    const posted = await postOk(coverage.id, { body: "<p>افتتاح المهرجان في وادان</p>" });
    for (const reader of [fr, en])
      expect(dataOf<LiveEntry>(await reader.waitFor((e) => e.event === "entry", "the entry in French/English"))).toEqual(posted.entry);
    expect((await fetch(`${server.url}/coverage/no-such-coverage/stream`)).status).toBe(404);
    fr.close();
    en.close();
  });

  it("lists live coverages in the ticker's JSON, in the address's language", async () => {
    const coverage = await liveCoverage("تغطية مباشرة لشريط الأخبار العاجلة");
    const ar = await fetch(`${server.url}/live.json`);
    expect(ar.status).toBe(200);
    const items = ((await ar.json()) as TickerAnswer).items;
    expect(items).toContainEqual({ kind: "live", title: "تغطية مباشرة لشريط الأخبار العاجلة", url: coverage.url });
    const fr = (await (await fetch(`${server.url}/fr/live.json`)).json()) as TickerAnswer;
    expect(fr.items.find((i) => i.kind === "live" && i.url === `/fr${coverage.url}`)).toBeTruthy();
    await ok(await setLive(coverage.id, false));
    await expect
      .poll(async () => ((await (await fetch(`${server.url}/live.json`)).json()) as TickerAnswer).items.map((i) => i.url))
      .not.toContain(coverage.url);
  });

  it("frees a reader's slot when they leave, and sends readers past 80 % of the cap to polling", async () => {
    const coverage = await liveCoverage("تغطية مباشرة لقياس عدد القراء");
    for (const s of opened) s.close();
    await expect.poll(openStreams).toBe(0);

    const one = await stream(`${coverage.url}/stream`);
    await one.waitForComment((c) => c === "ping", "heartbeat");
    expect(await openStreams()).toBe(1);
    one.close();
    await expect.poll(openStreams).toBe(0);

    const idle = (await (await readerJson(`${coverage.url}/entries?after=1`)).json()) as LiveEntriesAnswer;
    const kept = Math.floor(MAX_STREAMS * 0.8);
    const readers: SseStream[] = [];
    for (let i = 0; i < MAX_STREAMS; i++) readers.push(await stream(`${coverage.url}/stream`));
    expect(readers.map((r) => r.status)).toEqual(Array(MAX_STREAMS).fill(200));
    // Those past 80 % are told to slow down (a `slow` event, then the end of their stream: they poll the JSON a CDN
    // answers, less often than usual); the others stay.
    await expect.poll(openStreams).toBe(kept);
    await expect.poll(() => readers.filter((r) => r.ended()).length).toBe(MAX_STREAMS - kept);
    for (const r of readers.filter((r) => r.ended())) {
      const slow = await r.waitFor((e) => e.event === "slow", "the slow event past 80 % of the cap");
      expect(dataOf<{ retry_ms: number }>(slow).retry_ms).toBeGreaterThan(idle.retry_ms);
    }
    const staying = readers.filter((r) => !r.ended());
    expect(staying.some((r) => r.events.some((e) => e.event === "slow"))).toBe(false);

    // One leaves: the next reader gets their place and keeps it.
    staying.shift()!.close();
    await expect.poll(openStreams).toBe(kept - 1);
    const next = await stream(`${coverage.url}/stream`);
    expect(next.status).toBe(200);
    await next.started();
    await expect.poll(openStreams).toBe(kept);
    const posted = await postOk(coverage.id, { body: "<p>سطر يصل إلى القارئ الجديد</p>" });
    expect(dataOf<LiveEntry>(await next.waitFor((e) => e.event === "entry", "the entry on the new reader's stream"))).toEqual(posted.entry);
    expect(next.ended()).toBe(false);
    for (const r of [...staying, next]) r.close();
    await expect.poll(openStreams).toBe(0);
  });

  it("answers a stream past the process's cap with 503 and Retry-After (the client polls instead)", async () => {
    const full = await startAuthServer({
      personas: { chief: { email: "chief@live-full.test", password: "Passw0rdA", role: "admin" } },
      env: { LIVE_MAX_STREAMS: "0", LOG_LEVEL: "warn" },
    });
    try {
      const headers = { cookie: full.personas.chief.cookie, origin: full.url, "content-type": "application/json" };
      const created = await fetch(`${full.url}/api/admin/coverage`, {
        method: "POST",
        headers,
        body: JSON.stringify(validInput("coverage", 0, "تغطية على خادم ممتلئ")),
      });
      const coverage = await ok<Coverage>(created, 201);
      await ok(await fetch(`${full.url}/api/admin/coverage/${coverage.id}`, { method: "PATCH", headers, body: JSON.stringify({ live: true }) }));
      const refused = await fetch(`${full.url}${coverage.url}/stream`);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      await refused.body?.cancel();
      // The JSON still answers: it is where the client goes.
      expect((await fetch(`${full.url}${coverage.url}/entries`)).status).toBe(200);
    } finally {
      await full.stop();
    }
  });
});
