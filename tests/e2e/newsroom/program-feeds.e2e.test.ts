/**
 * Podcast feeds per program (issue 32): an episode names its program in the editor; the program's own feed at
 * /programs/:slug/feed.xml lists its published episodes; both pages name the feed with <link rel=alternate>;
 * the podcasts list announces each program's feed to copy for the directories.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseXml, validate as validateXml } from "fast-xml-parser";
import { validInput } from "#tests/helpers/content.ts";
import {
  contentEditor,
  expectToast,
  keepEvidence,
  open,
  publicPage,
  signedInPage,
  startNewsroomBrowser,
  stopNewsroomBrowser,
  type NewsroomBrowser,
} from "./support.ts";

const DESKTOP = { width: 1280, height: 900 };
type Item = { id: number; page_slug: string; url: string };

describe("podcast feeds per program", () => {
  let ctx: NewsroomBrowser<"editor">;
  let base = "";
  beforeAll(async () => {
    ctx = await startNewsroomBrowser({ editor: contentEditor("producer@sahara.test", "منتجة البرامج") });
    base = ctx.base;
  });
  afterAll(() => stopNewsroomBrowser(ctx?.browser, ctx?.server));

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: { cookie: ctx.server.personas.editor.cookie, origin: base, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const itemOf = (answer: { body: Record<string, unknown> }) => (answer.body.item ?? answer.body) as Item;
  const feedItems = async (path: string) => {
    const res = await fetch(base + path);
    const xml = await res.text();
    if (res.status !== 200) return { status: res.status, titles: [] as string[], channel: {} as Record<string, unknown> };
    expect(validateXml(xml)).toBe(true);
    const channel = (
      parseXml(xml, { ignoreAttributes: false, attributeNamePrefix: "@", arrayMode: (name: string) => name === "item" }) as {
        rss: { channel: Record<string, unknown> & { item?: { title: string }[] } };
      }
    ).rss.channel;
    return { status: res.status, titles: (channel.item ?? []).map((i) => String(i.title)), channel };
  };

  it("puts an episode in its program's feed, names the feed on both pages, and takes it out when the editor unsets the program", async () => {
    const created = await api("POST", "/api/admin/programs", validInput("program", 0, "حكايات الرمال والقوافل"));
    expect(created.status).toBe(201);
    const program = itemOf(created);
    // The slug is Arabic: the address is written percent-encoded, as the program's own URL.
    const feedPath = `${program.url}/feed.xml`;

    // An unknown program is refused with its message; nothing is saved.
    const episode = { ...validInput("podcast", 0, "حلقة عن قوافل الملح"), audio_url: "/uploads/podcasts/audio/salt.mp3", duration: "24:10" };
    const refused = await api("POST", "/api/admin/podcasts", { ...episode, program_id: 999999 });
    expect(refused.status).toBe(422);
    expect((refused.body.error as { fields: Record<string, string> }).fields.program_id).toBe("البرنامج المختار غير موجود.");
    const saved = await api("POST", "/api/admin/podcasts", { ...episode, program_id: program.id });
    expect(saved.status).toBe(201);
    const podcast = itemOf(saved);

    // The program's feed has the episode, under the program's title; the site's feed has it too.
    const feed = await feedItems(feedPath);
    expect(feed.status).toBe(200);
    expect(feed.titles).toEqual(["حلقة عن قوافل الملح"]);
    expect(feed.channel.title).toBe("بودكاست حكايات الرمال والقوافل");
    expect((await feedItems("/podcasts/feed.xml")).titles).toContain("حلقة عن قوافل الملح");
    const alternate = new RegExp(`<link rel="alternate" type="application/rss\\+xml" [^>]*href="${base}${feedPath.replace(/[.]/g, "\\.")}"`);
    expect((await publicPage(base, podcast.url)).text).toMatch(alternate);
    expect((await publicPage(base, program.url)).text).toMatch(alternate);

    const { context, page } = await signedInPage(ctx.browser, ctx.server, ctx.server.personas.editor, { viewport: DESKTOP });
    await keepEvidence(page, "program-feeds", async () => {
      // The podcasts list announces the program's feed beside the site's.
      await open(page, `${base}/admin/podcasts`);
      await page.locator('[data-testid="program-feeds"] summary').click();
      const announced = page.locator('[data-testid="program-feed-address"]', { hasText: "حكايات الرمال والقوافل" });
      expect(await announced.locator("a").textContent()).toBe(`${base}${feedPath}`);

      // The editor shows the program chosen; unsetting it takes the episode out of the program's feed.
      await open(page, `${base}/admin/podcasts/${podcast.id}`);
      const select = page.locator('[data-testid="input-program_id"]');
      expect(await select.inputValue()).toBe(String(program.id));
      expect((await select.locator("option:checked").textContent())?.trim()).toBe("حكايات الرمال والقوافل");
      await select.selectOption("");
      await page.click('[data-testid="save"]');
      await expectToast(page, "تم تحديث البودكاست بنجاح!");
    });
    await context.close();
    expect((await feedItems(feedPath)).titles).toEqual([]);
    expect((await publicPage(base, podcast.url)).text).not.toContain(feedPath);
    expect((await publicPage(base, program.url)).text).not.toContain(feedPath);
    // A program that does not exist has no feed.
    expect((await fetch(`${base}/programs/no-such-program/feed.xml`)).status).toBe(404);
  });
});
