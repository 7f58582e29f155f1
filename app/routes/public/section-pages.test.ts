/**
 * The section pages' loaders and the opinion page's action, called as React Router calls them, on a seeded
 * database: every filter, the 404 for filters that do not exist, featured/list separation, the politics
 * timeline, the literature fallback, the newsletter (with a real SMTP receiver) and the write-article box.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "#tests/helpers/db.ts";
import { startSmtpReceiver } from "#tests/helpers/smtp.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";
import { setDatabaseHandle, type DatabaseHandle } from "#server/db/client.server.ts";
import { contacts, newsletterSubscribers } from "#server/db/schema.server.ts";
import { resetConfig } from "#server/config.server.ts";
import { CLIENT_IP_HEADER } from "#server/content/views.server.ts";
import { NEWSLETTER_CONFIRM_JOB } from "#server/newsletter/subscriptions.server.ts";
import { newsletterConfirmHandler } from "#server/newsletter/jobs.server.ts";
import { startWorker } from "#server/jobs/queue.server.ts";
import { loader as cultureLoader } from "./culture.tsx";
import { loader as politicsLoader } from "./politics.tsx";
import { loader as literatureLoader } from "./literature.tsx";
import { action as opinionAction, loader as opinionLoader } from "./opinion.tsx";
import { loader as confirmLoader } from "./newsletter-confirm.tsx";

type Loader = (args: never) => unknown;
const call = async <L extends Loader>(loader: L, url: string, headers: Record<string, string> = {}) =>
  (await loader({ request: new Request(`http://localhost${url}`, { headers }), params: {}, context: { nonce: "" } } as never)) as Awaited<ReturnType<L>>;

/** The status a loader threw (data(null, {status}) or a Response), or "no throw". */
async function thrownStatus(run: () => Promise<unknown>): Promise<number | string> {
  try {
    await run();
    return "no throw";
  } catch (e) {
    const err = e as { init?: { status?: number }; status?: number };
    return err.init?.status ?? err.status ?? String(e);
  }
}

/** What a DataWithResponseInit carries. */
const unwrap = <T>(result: unknown) => {
  const r = result as { data?: T; init?: { status?: number } | null };
  return { body: r.data as T, status: r.init?.status ?? 200 };
};

/** The opinion page's form, posted to the page's address (`/fr/opinion`: the French page, issue 42). */
function post(fields: Record<string, string>, headers: Record<string, string> = {}, path = "/opinion") {
  return opinionAction({
    request: new Request(`http://localhost${path}`, { method: "POST", body: new URLSearchParams(fields), headers }),
    params: {},
    context: { nonce: "" },
  } as never);
}

describe("section pages (loaders and action)", () => {
  let t: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;

  beforeAll(async () => {
    t = await createTestDatabase("pglite");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "section-pages-"));
    await seedDemoContent(t.db, { uploadsDir: path.join(dataDir, "uploads") });
    setDatabaseHandle(t);
    smtp = await startSmtpReceiver();
    process.env.SMTP_URL = smtp.url;
    process.env.DATA_DIR = dataDir;
    process.env.PUBLIC_URL = "https://sahara.test";
    resetConfig();
  });
  afterAll(async () => {
    setDatabaseHandle(undefined);
    await smtp?.close();
    await t?.drop();
  });

  describe("/culture", () => {
    it("lists featured apart from the grid, with the chips of the section", async () => {
      const d = await call(cultureLoader, "/culture");
      expect(d.chips.map((c) => c.slug)).toEqual(["music", "crafts", "manuscripts", "architecture"]);
      expect(d.featured.length).toBeGreaterThan(0);
      expect(d.featured.length).toBeLessThanOrEqual(3);
      expect(d.featured.every((a) => a.isFeatured)).toBe(true);
      expect(d.grid.items.some((g) => d.featured.some((f) => f.id === g.id))).toBe(false);
      expect(d.grid.items.length).toBeLessThanOrEqual(12);
      expect(d.category).toBeNull();
    });

    it("?category= narrows both blocks to the chip", async () => {
      const d = await call(cultureLoader, "/culture?category=manuscripts");
      expect(d.category).toBe("manuscripts");
      const all = [...d.featured, ...d.grid.items];
      expect(all.length).toBeGreaterThan(0);
      expect(all.every((a) => a.categorySlug === "manuscripts")).toBe(true);
    });

    it("answers 404 for a chip that does not exist, and 400 for a bad page", async () => {
      expect(await thrownStatus(() => call(cultureLoader, "/culture?category=poetry"))).toBe(404);
      expect(await thrownStatus(() => call(cultureLoader, "/culture?category=%3Cscript%3E"))).toBe(404);
      expect(await thrownStatus(() => call(cultureLoader, "/culture?page=abc"))).toBe(400);
    });

    it("shows the featured block on the first page only", async () => {
      const p2 = await call(cultureLoader, "/culture?page=2");
      expect(p2.featured).toEqual([]);
      expect(p2.grid.page).toBe(2);
    });
  });

  describe("/politics", () => {
    it("has one featured item, kept out of the list, plus trending and region sidebars", async () => {
      const d = await call(politicsLoader, "/politics");
      expect(d.view).toBe("list");
      expect(d.featured).not.toBeNull();
      expect(d.featured!.isFeatured).toBe(true);
      expect(d.list!.items.some((i) => i.id === d.featured!.id)).toBe(false);
      expect(d.trending.length).toBeGreaterThan(0);
      expect(d.trending.length).toBeLessThanOrEqual(5);
      expect(d.trending.every((i) => i.isTrending)).toBe(true);
      expect(d.regions.map((r) => r.region)).toEqual(["uae", "morocco", "mauritania", "sahara", "mali"]);
      expect(d.regions.reduce((n, r) => n + r.count, 0)).toBe(d.list!.items.length + 1);
      expect(d.timeline).toBeNull();
    });

    it("filters by type: videos only, articles only", async () => {
      const videos = await call(politicsLoader, "/politics?type=videos");
      const v = [videos.featured!, ...videos.list!.items];
      expect(v.length).toBeGreaterThan(1);
      expect(v.every((i) => i.contentType === "video" && i.videoUrl)).toBe(true);
      const texts = await call(politicsLoader, "/politics?type=articles");
      expect([texts.featured!, ...texts.list!.items].every((i) => i.contentType === "article")).toBe(true);
      // The region counts follow the type filter.
      expect(videos.regions.reduce((n, r) => n + r.count, 0)).toBe(v.length);
    });

    it("filters by region, alone and with the type; an empty combination has no featured item", async () => {
      for (const region of ["uae", "morocco", "mauritania", "sahara", "mali"]) {
        const d = await call(politicsLoader, `/politics?region=${region}`);
        const items = [d.featured!, ...d.list!.items];
        expect(items.length, region).toBeGreaterThan(0);
        expect(
          items.every((i) => i.region === region),
          region,
        ).toBe(true);
      }
      const both = await call(politicsLoader, "/politics?region=mali&type=videos");
      expect([both.featured!, ...both.list!.items].every((i) => i.region === "mali" && i.contentType === "video")).toBe(true);
      const none = await call(politicsLoader, "/politics?region=sahara&type=videos");
      expect(none.featured).toBeNull();
      expect(none.list!.items).toEqual([]);
    });

    it("?view=timeline gives every filtered item grouped by year and month, newest first", async () => {
      const list = await call(politicsLoader, "/politics?region=morocco");
      const d = await call(politicsLoader, "/politics?view=timeline&region=morocco");
      expect(d.view).toBe("timeline");
      expect(d.list).toBeNull();
      const flat = d.timeline!.flatMap((y) => y.months.flatMap((m) => m.items));
      expect(flat.map((i) => i.id).sort()).toEqual([list.featured!, ...list.list!.items].map((i) => i.id).sort());
      const times = flat.map((i) => new Date(i.publishDate).getTime());
      expect(times).toEqual([...times].sort((a, b) => b - a));
    });

    it("answers 404 for unknown filter values", async () => {
      for (const q of ["type=podcasts", "region=spain", "view=grid", "region=UAE"]) {
        expect(await thrownStatus(() => call(politicsLoader, `/politics?${q}`)), q).toBe(404);
      }
    });
  });

  describe("/literature", () => {
    it("filters by type, with featured and full lists and verse previews", async () => {
      const all = await call(literatureLoader, "/literature");
      expect(all.fallback).toBe(false);
      expect(all.featured.length).toBeGreaterThan(0);
      for (const type of ["poetry", "prose", "folktales", "translations"] as const) {
        const d = await call(literatureLoader, `/literature?type=${type}`);
        expect(d.type).toBe(type);
        expect(d.items.length, type).toBeGreaterThan(0);
        expect(
          [...d.featured, ...d.items].every((i) => i.categorySlug === type),
          type,
        ).toBe(true);
      }
      const poetry = await call(literatureLoader, "/literature?type=poetry");
      expect(poetry.featured.every((p) => p.verses.length === 4)).toBe(true);
      expect(poetry.items.every((p) => p.verses.length === 2)).toBe(true);
      expect(await thrownStatus(() => call(literatureLoader, "/literature?type=novels"))).toBe(404);
    });

    it("falls back to the samples, marked as demo, when the database is down", async () => {
      const down = {
        ...t,
        db: new Proxy(
          {},
          {
            get: () => () => {
              throw new Error("database unreachable");
            },
          },
        ),
      } as unknown as DatabaseHandle;
      setDatabaseHandle(down);
      try {
        const d = await call(literatureLoader, "/literature?type=poetry");
        expect(d.fallback).toBe(true);
        expect(d.items.length).toBeGreaterThan(0);
        expect([...d.featured, ...d.items].every((i) => i.isDemo && i.categorySlug === "poetry")).toBe(true);
      } finally {
        setDatabaseHandle(t);
      }
    });
  });

  describe("/opinion", () => {
    it("has chips, a featured article apart from the list, and the 5 most read by view count", async () => {
      const d = await call(opinionLoader, "/opinion");
      expect(d.chips.map((c) => c.slug)).toEqual(["op-ed", "analysis", "columns"]);
      expect(d.featured).not.toBeNull();
      expect(d.list.items.some((i) => i.id === d.featured!.id)).toBe(false);
      expect(d.mostRead).toHaveLength(5);
      const views = d.mostRead.map((m) => m.viewCount);
      expect(views).toEqual([...views].sort((a, b) => b - a));
      const filtered = await call(opinionLoader, "/opinion?category=analysis");
      expect([filtered.featured!, ...filtered.list.items].every((i) => i.categorySlug === "analysis")).toBe(true);
      // Most read is the whole section's, whatever the chip.
      expect(filtered.mostRead.map((m) => m.id)).toEqual(d.mostRead.map((m) => m.id));
      expect(await thrownStatus(() => call(opinionLoader, "/opinion?category=music"))).toBe(404);
    });

    it("newsletter: refuses a bad address with 400 and writes nothing", async () => {
      const bad = unwrap<{ ok: boolean; fields: { email: string } }>(await post({ intent: "newsletter", email: "not an email" }));
      expect(bad.status).toBe(400);
      expect(bad.body.fields.email).toBe("newsletter.errors.email");
      const empty = unwrap<{ fields: { email: string } }>(await post({ intent: "newsletter" }));
      expect(empty.body.fields.email).toBe("newsletter.errors.emailRequired");
      expect(await t.db.select().from(newsletterSubscribers)).toHaveLength(0);
    });

    const runConfirmationJobs = async () => {
      const worker = startWorker(t.db, { [NEWSLETTER_CONFIRM_JOB]: newsletterConfirmHandler() }, { pollMs: 50 });
      try {
        await worker.drain();
      } finally {
        await worker.stop();
      }
    };

    it("newsletter: stores a pending subscriber, mails the link, and answers the same for a known address", async () => {
      // From the French page: the subscriber's language is the address's, whatever the cookie says.
      const first = unwrap(await post({ intent: "newsletter", email: "  Reader@Sahara.TEST " }, { Cookie: "i18nextLng=en" }, "/fr/opinion"));
      expect(first).toEqual({ status: 200, body: { intent: "newsletter", ok: true } });
      // The request only queues the confirmation (decision 0136): the job writes the subscriber and mails the link.
      await runConfirmationJobs();
      const [row] = await t.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, "reader@sahara.test"));
      expect(row).toMatchObject({ status: "pending", language: "fr" });
      const mail = await smtp.waitFor("reader@sahara.test");
      const link = mail.links.find((l) => l.includes("/newsletter/confirm?token="))!;
      expect(link.startsWith("https://sahara.test/fr/newsletter/confirm?token=")).toBe(true);

      const confirmed = unwrap<{ status: string }>(await call(confirmLoader, new URL(link).pathname + new URL(link).search));
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.status).toBe("confirmed");
      const again = unwrap<{ status: string }>(await call(confirmLoader, new URL(link).pathname + new URL(link).search));
      expect(again).toMatchObject({ status: 400, body: { status: "invalid" } });

      // Already confirmed: the very same answer, and no second e-mail.
      expect(unwrap(await post({ intent: "newsletter", email: "reader@sahara.test" }))).toEqual(first);
      await runConfirmationJobs();
      expect(smtp.messages.filter((m) => m.to.includes("reader@sahara.test"))).toHaveLength(1);
    });

    it("newsletter confirm: a made-up token gets the 400 page", async () => {
      expect(unwrap<{ status: string }>(await call(confirmLoader, "/newsletter/confirm?token=" + "x".repeat(43)))).toMatchObject({
        status: 400,
        body: { status: "invalid" },
      });
      expect(unwrap<{ status: string }>(await call(confirmLoader, "/newsletter/confirm"))).toMatchObject({ status: 400, body: { status: "invalid" } });
    });

    it("write-article box: stores a proposal as typed (trimmed) as a new contact of its own kind", async () => {
      const res = unwrap(
        await post({
          intent: "proposal",
          name: " Aminetou <b>Mint</b> Ahmed ",
          email: "Writer@Example.org",
          title: "عن المكتبات <script>alert(1)</script>المتنقلة",
          summary: "أقترح مقالاً عن المكتبات المتنقلة في البادية\nوكيف تصل الكتب إلى المحاظر. <img src=x onerror=alert(1)>",
        }),
      );
      expect(res).toEqual({ status: 200, body: { intent: "proposal", ok: true } });
      const rows = await t.db.select().from(contacts).where(eq(contacts.kind, "article_proposal"));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        name: "Aminetou <b>Mint</b> Ahmed",
        email: "writer@example.org",
        subject: "عن المكتبات <script>alert(1)</script>المتنقلة",
        status: "new",
        kind: "article_proposal",
      });
      expect(rows[0].message).toBe("أقترح مقالاً عن المكتبات المتنقلة في البادية\nوكيف تصل الكتب إلى المحاظر. <img src=x onerror=alert(1)>");
    });

    it("write-article box: missing or too-short fields give 400 with field messages and store nothing", async () => {
      const before = (await t.db.select().from(contacts)).length;
      const res = unwrap<{ ok: boolean; fields: Record<string, string> }>(
        await post({ intent: "proposal", name: "", email: "x@", title: "عنوان", summary: "قصير" }),
      );
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual({ name: "proposal.errors.required", email: "proposal.errors.email", summary: "proposal.errors.summaryTooShort" });
      const long = unwrap<{ fields: Record<string, string> }>(
        await post({ intent: "proposal", name: "n", email: "a@b.co", title: "t".repeat(201), summary: "s".repeat(40) }),
      );
      expect(long.body.fields).toEqual({ title: "proposal.errors.titleTooLong" });
      expect((await t.db.select().from(contacts)).length).toBe(before);
      expect(
        await t.db
          .select()
          .from(contacts)
          .where(and(eq(contacts.kind, "article_proposal"), eq(contacts.name, "n"))),
      ).toEqual([]);
    });

    it("write-article box: a filled honeypot gets the same answer and stores nothing", async () => {
      const before = (await t.db.select().from(contacts)).length;
      const res = unwrap(
        await post({ intent: "proposal", name: "Bot", email: "bot@spam.test", title: "Buy", summary: "x".repeat(60), website: "http://spam.test" }),
      );
      expect(res).toEqual({ status: 200, body: { intent: "proposal", ok: true } });
      expect((await t.db.select().from(contacts)).length).toBe(before);
    });

    it("limits sign-ups per client address with 429 and Retry-After", async () => {
      const from = { [CLIENT_IP_HEADER]: "203.0.113.99" };
      for (let i = 0; i < 5; i++) expect(unwrap(await post({ intent: "newsletter", email: "reader@sahara.test" }, from)).status).toBe(200);
      const limited = (await post({ intent: "newsletter", email: "reader@sahara.test" }, from)) as {
        data: unknown;
        init: { status: number; headers: Record<string, string> };
      };
      expect(limited.init.status).toBe(429);
      expect(limited.data).toEqual({
        intent: "newsletter",
        ok: false,
        formError: "RATE_LIMITED",
        retryAfterSeconds: Number(limited.init.headers["Retry-After"]),
      });
      expect(Number(limited.init.headers["Retry-After"])).toBeGreaterThan(0);
      // Another address is not held back.
      expect(unwrap(await post({ intent: "newsletter", email: "reader@sahara.test" }, { [CLIENT_IP_HEADER]: "203.0.113.100" })).status).toBe(200);
    });

    it("refuses an unknown intent and an oversized body", async () => {
      expect(unwrap(await post({ intent: "delete-everything" })).status).toBe(400);
      expect(unwrap(await post({ intent: "proposal", summary: "x" }, { "Content-Length": String(10 * 1024 * 1024) })).status).toBe(413);
    });
  });
});
