import { MEDIA_TYPES } from "#domain/media-library.ts";
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, count, eq, sql } from "drizzle-orm";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "#tests/helpers/db.ts";
import { articles, authors, categories, COVERAGE_TYPES, coverages, media, news, podcasts, PROGRAM_TYPES, programs, REGIONS, videos } from "./schema.server.ts";
import { AUTHORS } from "./seed-data/authors.ts";
import { seedDemoContent, type SeedResult } from "./seed.server.ts";
import { DEMO_CLIPS, DEMO_RENDITION, SAMPLE_VIDEO_URL } from "./demo-assets.server.ts";

const contentTables = { articles, news, programs, podcasts, coverages, media } as const;
type ContentTable = (typeof contentTables)[keyof typeof contentTables];
/** The content tables share status, page_slug, dates and is_demo; drizzle cannot type a union of tables. */
const asNews = (table: ContentTable) => table as unknown as typeof news;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const hasFfmpeg = !spawnSync("ffmpeg", ["-version"], { stdio: "ignore" }).error;

describe.each(testDatabaseKinds)("demo seed on %s", (kind) => {
  let t: TestDatabase;
  let uploadsDir: string;
  let videosDir: string;
  let first: SeedResult;
  let seedMs = 0;
  const logs: string[] = [];

  /** `/uploads/demo/x.svg` → the file the server would serve for it. */
  const fileOf = (url: string) => path.join(uploadsDir, url.replace(/^\/uploads\//, ""));

  async function counts() {
    const out: Record<string, number> = {};
    for (const [name, table] of Object.entries({ ...contentTables, categories, videos })) {
      const [row] = await t.db.select({ n: count() }).from(table);
      out[name] = Number(row.n);
    }
    return out;
  }

  async function published(table: ContentTable) {
    const [row] = await t.db
      .select({ n: count() })
      .from(asNews(table))
      .where(eq(asNews(table).status, "published"));
    return Number(row.n);
  }

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "seed-test-"));
    videosDir = fs.mkdtempSync(path.join(os.tmpdir(), "seed-test-videos-"));
    const started = Date.now();
    first = await seedDemoContent(t.db, { uploadsDir, videosDir, log: (m) => logs.push(m) });
    seedMs = Date.now() - started;
  });

  afterAll(async () => {
    await t?.drop();
    if (uploadsDir) fs.rmSync(uploadsDir, { recursive: true, force: true });
    if (videosDir) fs.rmSync(videosDir, { recursive: true, force: true });
  });

  it("reports what it inserted", () => {
    expect(first.inserted.articles).toBeGreaterThanOrEqual(40);
    expect(first.inserted.media).toBe(48);
    expect(logs.some((l) => l.includes("demo content inserted"))).toBe(true);
  });

  it("has the categories of both spec documents, each named in Arabic and French", async () => {
    const rows = await t.db.select().from(categories);
    const bySlug = new Map(rows.map((c) => [c.slug, c]));
    for (const slug of [
      "adrar",
      "brakna",
      "taganit",
      "trarza",
      "poetry",
      "prose",
      "folktales",
      "translations",
      "breaking",
      "culture",
      "politics",
      "literature",
      "opinion",
      "emirates",
      "sports",
      "economy",
      "general",
    ]) {
      expect(bySlug.has(slug), slug).toBe(true);
    }
    for (const c of rows) {
      expect(c.name.length).toBeGreaterThan(0);
      expect(c.nameFr?.length).toBeGreaterThan(0);
    }
    const emirates = bySlug.get("emirates")!;
    for (const [slug, year] of [
      ["adrar", "1740"],
      ["brakna", "1600"],
      ["taganit", "1580"],
      ["trarza", "1640"],
    ]) {
      expect(bySlug.get(slug)!.parentId).toBe(emirates.id);
      expect(bySlug.get(slug)!.type).toBe("emirates");
      expect(bySlug.get(slug)!.description).toContain(year);
    }
    for (const slug of ["poetry", "prose", "folktales", "translations"]) expect(bySlug.get(slug)!.parentId).toBe(bySlug.get("literature")!.id);
    for (const slug of ["breaking", "sports", "economy"]) expect(bySlug.get(slug)!.type).toBe("news");
    const cultureChildren = rows.filter((c) => c.parentId === bySlug.get("culture")!.id);
    expect(cultureChildren.length).toBeGreaterThanOrEqual(3);
  });

  it("meets the spec minimums per section", async () => {
    expect(await published(news)).toBeGreaterThanOrEqual(30);
    expect(await published(articles)).toBeGreaterThanOrEqual(40);
    expect(await published(programs)).toBe(8);
    expect(await published(podcasts)).toBe(8);
    expect(await published(coverages)).toBe(6);

    const cats = await t.db.select().from(categories);
    const slugOf = new Map(cats.map((c) => [c.id, c.slug]));
    const sectionOf = (id: number | null) => {
      const c = cats.find((x) => x.id === id);
      return c?.parentId ? slugOf.get(c.parentId) : c?.slug;
    };
    const rows = (await t.db.select().from(articles)).filter((a) => a.status === "published");
    const bySection = (s: string) => rows.filter((a) => sectionOf(a.categoryId) === s);
    const byCategory = (s: string) => rows.filter((a) => slugOf.get(a.categoryId!) === s);
    for (const s of ["culture", "politics", "literature", "emirates"]) expect(bySection(s).length, s).toBeGreaterThanOrEqual(6);
    expect(bySection("opinion").length).toBeGreaterThanOrEqual(6);
    for (const e of ["adrar", "brakna", "taganit", "trarza"]) expect(byCategory(e).length, e).toBeGreaterThanOrEqual(2);
    for (const l of ["poetry", "prose", "folktales", "translations"]) expect(byCategory(l).length, l).toBeGreaterThanOrEqual(2);

    // Poetry previews show 4 lines (featured) and 2 lines (list): poems need real verse lines.
    for (const poem of byCategory("poetry")) expect(poem.content.split("\n").filter(Boolean).length).toBeGreaterThanOrEqual(6);
    // Prose has paragraphs separated by a blank line.
    expect(byCategory("prose").every((a) => a.content.includes("\n\n"))).toBe(true);

    const politics = bySection("politics");
    expect(new Set(politics.map((a) => a.region))).toEqual(new Set(REGIONS));
    expect(politics.some((a) => a.isTrending)).toBe(true);
    const videosOnly = politics.filter((a) => a.contentType === "video");
    expect(videosOnly.length).toBeGreaterThanOrEqual(2);

    const opinionViews = new Set(bySection("opinion").map((a) => a.viewCount));
    expect(opinionViews.size).toBe(bySection("opinion").length);
    expect(rows.filter((a) => a.isFeatured).length).toBeGreaterThanOrEqual(3);
    expect(rows.every((a) => a.authorName && a.readTimeMinutes && a.readTimeMinutes >= 1)).toBe(true);
    expect(rows.filter((a) => a.titleFr && a.excerptFr && a.authorNameFr).length / rows.length).toBeGreaterThan(0.5);
  });

  it("uses every program type and coverage type, and 12 media items of each type", async () => {
    const progs = (await t.db.select().from(programs)).filter((p) => p.status === "published");
    expect(new Set(progs.map((p) => p.programType))).toEqual(new Set(PROGRAM_TYPES));
    for (const p of progs) {
      expect(p.hostName).toBeTruthy();
      expect(p.duration).toMatch(/^\d{2}:\d{2}$/);
      expect(p.airDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    const pods = (await t.db.select().from(podcasts)).filter((p) => p.status === "published");
    for (const p of pods) {
      expect(p.episodeNumber).toBeGreaterThan(0);
      expect(p.duration).toMatch(/^\d{2}:\d{2}$/);
      expect(p.audioUrl).toMatch(/^\/uploads\/demo\/audio\/.+\.wav$/);
    }
    const covs = await t.db.select().from(coverages);
    expect(new Set(covs.map((c) => c.coverageType))).toEqual(new Set(COVERAGE_TYPES));
    expect(covs.every((c) => c.eventLocation && c.eventDate && c.reporterName)).toBe(true);

    for (const type of MEDIA_TYPES) {
      const items = await t.db
        .select()
        .from(media)
        .where(and(eq(media.mediaType, type), eq(media.status, "published")));
      expect(items.length, type).toBe(12);
      expect(
        items.some((m) => m.isFeatured),
        type,
      ).toBe(true);
      if (type === "audio" || type === "video") expect(items.every((m) => (m.durationSeconds ?? 0) > 0)).toBe(true);
      expect(items.every((m) => m.authorName && m.categoryId && m.thumbnailUrl)).toBe(true);
    }
  });

  it("includes drafts in several tables", async () => {
    for (const [table, min] of [
      [news, 2],
      [articles, 2],
      [programs, 1],
      [podcasts, 1],
    ] as const) {
      const [row] = await t.db
        .select({ n: count() })
        .from(asNews(table))
        .where(eq(asNews(table).status, "draft"));
      expect(Number(row.n)).toBeGreaterThanOrEqual(min);
    }
    // Drafts must not be featured anywhere public.
    const featuredDrafts = await t.db
      .select()
      .from(articles)
      .where(and(eq(articles.status, "draft"), eq(articles.isFeatured, true)));
    expect(featuredDrafts).toHaveLength(0);
  });

  it("credits every demo item to its contributor's author profile, and tags items by the places they name", async () => {
    const profiles = await t.db.select().from(authors);
    expect(profiles.map((a) => a.name).sort()).toEqual(
      Object.values(AUTHORS)
        .map((a) => a.name)
        .sort(),
    );
    expect(profiles.every((a) => a.nameFr && a.bio && /^[a-z-]+$/.test(a.slug))).toBe(true);
    for (const [type, table] of Object.entries({ article: articles, news, coverage: coverages, podcast: podcasts, program: programs, media })) {
      const [unnamed] = await t.db
        .execute<{ n: number }>(
          sql`select count(*)::int as n from ${table} t where not exists (select 1 from item_authors ia where ia.content_type = ${type} and ia.item_id = t.id)`,
        )
        .then((r) => r.rows);
      expect(unnamed.n, type).toBe(0);
    }
    const tagged = await t.db.execute<{ name: string; n: number }>(
      sql`select tg.name, count(*)::int as n from item_tags it join tags tg on tg.id = it.tag_id group by tg.name`,
    );
    const byName = new Map(tagged.rows.map((r) => [r.name, r.n]));
    expect(byName.get("نواذيبو")).toBeGreaterThan(0);
    expect(byName.get("المخطوطات")).toBeGreaterThan(0);
  });

  it("marks every seeded row as demo, with valid slugs and no future dates", async () => {
    const now = Date.now();
    for (const [name, table] of Object.entries(contentTables)) {
      const rows = await t.db.select().from(asNews(table));
      for (const r of rows) {
        expect(r.isDemo, `${name}/${r.pageSlug}`).toBe(true);
        expect(r.pageSlug).toMatch(SLUG);
        expect(r.publishDate.getTime()).toBeLessThanOrEqual(now);
        expect(r.createdAt.getTime()).toBeLessThanOrEqual(now);
        expect(now - r.publishDate.getTime()).toBeLessThan(92 * 24 * 3_600_000);
      }
    }
    expect((await t.db.select().from(categories)).every((c) => c.isDemo)).toBe(true);
    expect((await t.db.select().from(videos)).every((v) => v.isDemo)).toBe(true);
  });

  it("seeds the video library with one ready row per video media item", async () => {
    const rows = await t.db.select().from(videos);
    expect(rows).toHaveLength(12);
    const hasSample = fs.existsSync(fileOf(SAMPLE_VIDEO_URL));
    for (const v of rows) {
      expect(v.guid).toMatch(UUID);
      expect(v.status).toBe(hasSample ? 4 : 5);
      expect(v.lengthSeconds).toBeGreaterThan(0);
    }
    const videoMedia = await t.db.select().from(media).where(eq(media.mediaType, "video"));
    expect(videoMedia.every((m) => m.fileUrl === (hasSample ? SAMPLE_VIDEO_URL : null))).toBe(true);
  });

  it.skipIf(!hasFfmpeg)("gives every demo video files of its own: a clip as HLS and MP4 of its true length, and a thumbnail", async () => {
    const rows = await t.db.select().from(videos);
    const lengths = new Set<number>();
    const thumbnails = new Set<string>();
    for (const v of rows) {
      const dir = path.join(videosDir, v.guid);
      expect(v.status, v.guid).toBe(4);
      expect(DEMO_CLIPS.map((c) => c.seconds as number)).toContain(v.lengthSeconds);
      lengths.add(v.lengthSeconds);
      expect(v.thumbnailFileName).toBe("thumbnail.jpg");
      const master = fs.readFileSync(path.join(dir, "playlist.m3u8"), "utf8");
      expect(master).toMatch(/^#EXTM3U\n/);
      expect(master).toContain(`${DEMO_RENDITION}/video.m3u8`);
      const media = fs.readFileSync(path.join(dir, DEMO_RENDITION, "video.m3u8"), "utf8");
      const segments = media.match(/^segment_\d{3}\.ts$/gm) ?? [];
      expect(segments.length).toBeGreaterThanOrEqual(Math.floor(v.lengthSeconds / 2));
      for (const s of segments) expect(fs.existsSync(path.join(dir, DEMO_RENDITION, s))).toBe(true);
      // The playlist's segment durations add up to the length the library states.
      const total = [...media.matchAll(/#EXTINF:([\d.]+)/g)].reduce((a, m) => a + Number(m[1]), 0);
      expect(Math.abs(total - v.lengthSeconds)).toBeLessThan(0.6);
      const mp4 = fs.readFileSync(path.join(dir, "play_720p.mp4"));
      expect(mp4.subarray(4, 8).toString("latin1")).toBe("ftyp");
      expect(mp4.length).toBeLessThan(1_000_000);
      const jpg = fs.readFileSync(path.join(dir, "thumbnail.jpg"));
      expect(jpg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      thumbnails.add(crypto.createHash("sha1").update(jpg).digest("hex"));
    }
    expect(lengths.size).toBe(DEMO_CLIPS.length);
    // Videos sharing a clip still each have a picture of their own.
    expect(thumbnails.size).toBe(rows.length);
    // Seeding stays quick: the clips and thumbnails are a few seconds of ffmpeg at most.
    expect(seedMs).toBeLessThan(60_000);
  });

  it("writes a picture for every row, small and well-formed", async () => {
    const urls: string[] = [];
    for (const table of [articles, news, programs, podcasts, coverages] as const) {
      for (const r of await t.db.select({ url: asNews(table).imageUrl }).from(asNews(table))) urls.push(r.url!);
    }
    for (const r of await t.db.select({ url: media.thumbnailUrl }).from(media)) urls.push(r.url!);
    expect(urls.every(Boolean)).toBe(true);
    for (const url of urls) {
      expect(url).toMatch(/^\/uploads\/demo\/images\/[a-z]+\/[a-z0-9-]+\.svg$/);
      const svg = fs.readFileSync(fileOf(url), "utf8");
      expect(svg.startsWith("<svg ")).toBe(true);
      expect(svg).toContain('viewBox="0 0 1200 675"');
      expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
      expect(Buffer.byteLength(svg)).toBeLessThan(3_500);
    }
  });

  it("writes a well-formed WAV and PDFs", async () => {
    const audio = await t.db.select({ url: media.fileUrl }).from(media).where(eq(media.mediaType, "audio"));
    const wavs = new Set([...audio.map((a) => a.url!), ...(await t.db.select({ url: podcasts.audioUrl }).from(podcasts)).map((p) => p.url!)]);
    expect(wavs.size).toBeGreaterThanOrEqual(1);
    for (const url of wavs) {
      const b = fs.readFileSync(fileOf(url));
      expect(b.toString("ascii", 0, 4)).toBe("RIFF");
      expect(b.readUInt32LE(4)).toBe(b.length - 8);
      expect(b.toString("ascii", 8, 12)).toBe("WAVE");
      expect(b.toString("ascii", 12, 16)).toBe("fmt ");
      expect(b.readUInt16LE(20)).toBe(1); // PCM
      expect(b.readUInt16LE(22)).toBe(1); // mono
      expect(b.readUInt32LE(24)).toBe(8000);
      expect(b.readUInt16LE(34)).toBe(16);
      expect(b.toString("ascii", 36, 40)).toBe("data");
      const seconds = b.readUInt32LE(40) / (8000 * 2);
      expect(seconds).toBeGreaterThanOrEqual(2);
      expect(seconds).toBeLessThanOrEqual(3);
    }

    const docs = await t.db.select({ url: media.fileUrl }).from(media).where(eq(media.mediaType, "document"));
    expect(docs).toHaveLength(12);
    for (const { url } of docs) {
      expect(url).toMatch(/^\/uploads\/demo\/documents\/.+\.pdf$/);
      const pdf = fs.readFileSync(fileOf(url!)).toString("latin1");
      expect(pdf.startsWith("%PDF-")).toBe(true);
      expect(pdf.trimEnd().endsWith("%%EOF")).toBe(true);
      // The cross-reference table must point at the objects, or strict readers refuse the file.
      const xrefAt = Number(/startxref\n(\d+)\n/.exec(pdf)![1]);
      expect(pdf.slice(xrefAt, xrefAt + 4)).toBe("xref");
      const entries = pdf
        .slice(xrefAt)
        .split("\n")
        .slice(3)
        .filter((l) => / 00000 n $/.test(l));
      entries.forEach((line, i) => expect(pdf.slice(Number(line.slice(0, 10))).startsWith(`${i + 1} 0 obj`)).toBe(true));
      const length = Number(/\/Length (\d+) >>\nstream\n/.exec(pdf)![1]);
      const start = pdf.indexOf("stream\n") + "stream\n".length;
      expect(pdf.slice(start + length, start + length + 10)).toBe("\nendstream");
    }
  });

  it("inserts nothing and changes no count when run again", async () => {
    const before = await counts();
    const files = fs.readdirSync(path.join(uploadsDir, "demo"), { recursive: true }).length;
    const videoFiles = fs.readdirSync(videosDir, { recursive: true }).length;
    const thumb = path.join(videosDir, (await t.db.select().from(videos))[0].guid, "thumbnail.jpg");
    const thumbTime = fs.existsSync(thumb) ? fs.statSync(thumb).mtimeMs : 0;
    const again = await seedDemoContent(t.db, { uploadsDir, videosDir });
    expect(Object.values(again.inserted).every((n) => n === 0)).toBe(true);
    expect(await counts()).toEqual(before);
    expect(fs.readdirSync(path.join(uploadsDir, "demo"), { recursive: true }).length).toBe(files);
    expect(fs.readdirSync(videosDir, { recursive: true }).length).toBe(videoFiles);
    if (thumbTime) expect(fs.statSync(thumb).mtimeMs).toBe(thumbTime);
  });

  it("never overwrites a row an editor changed", async () => {
    const [item] = await t.db.select().from(news).where(eq(news.pageSlug, "sandstorm-warning-nouakchott"));
    await t.db.update(news).set({ title: "عنوان عدّله المحرر", status: "draft", imageUrl: null }).where(eq(news.id, item.id));
    await t.db.update(categories).set({ name: "اسم جديد" }).where(eq(categories.slug, "poetry"));

    const again = await seedDemoContent(t.db, { uploadsDir });
    expect(again.inserted.news).toBe(0);
    const [after] = await t.db.select().from(news).where(eq(news.id, item.id));
    expect(after.title).toBe("عنوان عدّله المحرر");
    expect(after.status).toBe("draft");
    expect(after.imageUrl).toBeNull();
    const [poetry] = await t.db.select().from(categories).where(eq(categories.slug, "poetry"));
    expect(poetry.name).toBe("اسم جديد");
  });
});

describe("demo seed without ffmpeg", () => {
  let t: TestDatabase;
  let uploadsDir: string;
  const savedPath = process.env.PATH;

  beforeAll(async () => {
    t = await createTestDatabase("pglite");
    uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "seed-noffmpeg-"));
  });
  afterAll(async () => {
    process.env.PATH = savedPath;
    await t?.drop();
    if (uploadsDir) fs.rmSync(uploadsDir, { recursive: true, force: true });
  });

  it("still seeds, with video rows that have no file and a failed library status", async () => {
    // An empty PATH makes spawnSync('ffmpeg') fail exactly as on a machine without ffmpeg.
    process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), "empty-path-"));
    const logs: string[] = [];
    let result: SeedResult;
    try {
      result = await seedDemoContent(t.db, { uploadsDir, videosDir: path.join(uploadsDir, "videos"), log: (m) => logs.push(m) });
    } finally {
      fs.rmSync(process.env.PATH, { recursive: true, force: true });
      process.env.PATH = savedPath;
    }
    expect(result.inserted.media).toBe(48);
    expect(logs.some((l) => l.includes("ffmpeg not found"))).toBe(true);
    expect(fs.existsSync(path.join(uploadsDir, "demo", "video", "sample.mp4"))).toBe(false);
    const videoMedia = await t.db.select().from(media).where(eq(media.mediaType, "video"));
    expect(videoMedia).toHaveLength(12);
    expect(videoMedia.every((m) => m.fileUrl === null && m.thumbnailUrl)).toBe(true);
    expect((await t.db.select().from(videos)).every((v) => v.status === 5 && v.thumbnailFileName === null)).toBe(true);
    const videosDir = path.join(uploadsDir, "videos");
    expect(fs.existsSync(videosDir) ? fs.readdirSync(videosDir) : []).toEqual([]);
    const videoArticles = await t.db.select().from(articles).where(eq(articles.contentType, "video"));
    expect(videoArticles.every((a) => a.videoUrl === null)).toBe(true);
  });
});
