/**
 * Video accessibility (issue 14, docs/decisions/0111-captions-and-transcripts.md) on the seeded demo content:
 * the demo program's video carries its WebVTT captions as a default <track> that Chromium loads and shows, the
 * file is served as text/vtt within the page's CSP, and the demo program's and podcast's transcripts sit in a
 * closed <details> that opens, with JavaScript and without, keeping the text's own language and direction on a
 * page in another language. On a server of its own, the newsroom: the JSON API's names for both fields, and
 * the editor's captions upload refusing a file that is not WebVTT and taking one that is.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { sharedServer } from "#tests/e2e/support/workers.ts";
import { hasChromium, hydrated, launchBrowser, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { expectToast, keepEvidence, open, signedInPage } from "#tests/e2e/newsroom/support.ts";
import ar from "#domain/locales/ar/common.json" with { type: "json" };
import { localizedPath } from "#domain/addresses.ts";

const base = sharedServer().baseUrl;
const PROGRAM = "/programs/khutwa-caravan-trail-ouadane-tichitt";
const PODCAST = "/podcasts/tent-talk-s1e1-why-a-million-poets";
const CAPTIONS = "/uploads/demo/captions/khutwa-caravan-trail-ouadane-tichitt.vtt";
const TRANSCRIPT_LABEL = { ar: "النص الكامل", fr: "Transcription", en: "Transcript" } as const;

describe("captions and transcripts in the server's HTML", () => {
  it("the demo program's page has a default Arabic captions track and a closed transcript; the file is WebVTT within the CSP", async () => {
    const res = await fetch(base + localizedPath("ar", PROGRAM));
    expect(res.status).toBe(200);
    const html = await res.text();
    const track = /<track [^>]*>/.exec(html)?.[0];
    expect(track).toBeDefined();
    expect(track).toContain('kind="captions"');
    expect(track).toContain(`src="${CAPTIONS}"`);
    expect(track).toMatch(/srclang="ar"/i);
    expect(track).toContain('label="العربية"');
    expect(track).toMatch(/ default(?:=""|\s|>|\/)/);
    expect(html).toMatch(/<details [^>]*data-testid="transcript"/);
    expect(html).toContain("الدليل: بالنجوم. الجدي لا يتحرك");

    // media-src covers <track>: our own origin is in it.
    expect(res.headers.get("content-security-policy")).toMatch(/media-src 'self'/);
    const vtt = await fetch(base + CAPTIONS);
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get("content-type")).toMatch(/^text\/vtt/);
    expect(await vtt.text()).toMatch(/^WEBVTT\n\n1\n00:00\.000 --> 00:02\.000\nعلى درب القوافل/);
  });

  it("the demo podcast has a transcript and no track (it has no video); an article has neither", async () => {
    const podcast = await (await fetch(base + PODCAST)).text();
    expect(podcast).toMatch(/<details [^>]*data-testid="transcript"/);
    expect(podcast).toContain("لماذا بلاد المليون شاعر");
    expect(podcast).not.toContain("<track");
    const article = await (await fetch(base + "/articles/poem-testament-of-the-dune")).text();
    expect(article).not.toContain('data-testid="transcript"');
  });
});

describe.skipIf(!hasChromium)("captions and transcripts in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("the player loads the captions track and shows it; the transcript opens and holds the text", async () => {
    const { page, errors, context } = await newPage(browser, { viewport: PHONE, locale: "ar" });
    try {
      await page.goto(base + PROGRAM);
      await hydrated(page);
      const track = page.locator('[data-testid="video-element"] track[kind="captions"]');
      await track.waitFor({ state: "attached" });
      expect(await track.getAttribute("src")).toBe(CAPTIONS);
      expect(await track.getAttribute("srclang")).toBe("ar");
      expect(await track.getAttribute("label")).toBe("العربية");
      expect(await track.evaluate((el: HTMLTrackElement) => el.default)).toBe(true);
      // HTMLTrackElement.LOADED is 2: the file was fetched (CSP allowed it) and parsed as WebVTT.
      await page.waitForFunction(() => document.querySelector<HTMLTrackElement>('[data-testid="video-element"] track')?.readyState === 2);
      const state = await page.evaluate(() => {
        const video = document.querySelector<HTMLVideoElement>('[data-testid="video-element"]')!;
        const t = video.textTracks[0];
        return {
          count: video.textTracks.length,
          mode: t.mode,
          kind: t.kind,
          language: t.language,
          cues: t.cues?.length ?? 0,
          first: (t.cues?.[0] as VTTCue | undefined)?.text,
        };
      });
      expect(state).toEqual({ count: 1, mode: "showing", kind: "captions", language: "ar", cues: 2, first: "على درب القوافل من وادان إلى تيشيت" });

      const details = page.getByTestId("transcript");
      expect(await details.evaluate((el: HTMLDetailsElement) => el.open)).toBe(false);
      expect(await page.getByTestId("transcript-text").isVisible()).toBe(false);
      await details.locator("summary").click();
      await page.getByTestId("transcript-text").waitFor({ state: "visible" });
      expect((await details.locator("summary").textContent())?.trim()).toBe(TRANSCRIPT_LABEL.ar);
      expect(await page.getByTestId("transcript-text").locator("p").count()).toBe(4);
      expect(await page.getByTestId("transcript-text").textContent()).toContain("كنا نحسب الطريق بالأيام لا بالكيلومترات");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  for (const lang of ["fr", "en"] as const) {
    it(`${lang}: the transcript opens without JavaScript, labelled in ${lang}, its Arabic text marked lang="ar" dir="rtl"; the track is labelled in ${lang}`, async () => {
      const { page, context } = await newPage(browser, { viewport: PHONE, locale: lang, javaScriptEnabled: false });
      try {
        // The address alone says the language (issue 42).
        await page.goto(base + localizedPath(lang, PODCAST));
        const summary = page.getByTestId("transcript").locator("summary");
        expect((await summary.textContent())?.trim()).toBe(TRANSCRIPT_LABEL[lang]);
        await summary.click();
        const text = page.getByTestId("transcript-text");
        await text.waitFor({ state: "visible" });
        expect(await text.getAttribute("lang")).toBe("ar");
        expect(await text.getAttribute("dir")).toBe("rtl");
        expect(await text.textContent()).toContain("المحظرة ما زالت تعلّم الحفظ والعروض");

        await page.goto(base + localizedPath(lang, PROGRAM));
        expect(await page.locator("track").first().getAttribute("label")).toBe(lang === "fr" ? "arabe" : "Arabic");
      } finally {
        await context.close();
      }
    });
  }
});

describe("captions and transcripts in the newsroom", () => {
  let server: AuthServer<"admin">;
  let browser: Browser | undefined;
  const api = (method: string, path: string, body?: unknown) =>
    fetch(server.url + path, {
      method,
      headers: { cookie: server.personas.admin.cookie, origin: server.url, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startAuthServer({ personas: { admin: { email: "captions-chief@newsroom.test", password: "Passw0rdA", role: "admin" } } });
    if (hasChromium) browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("the JSON API takes and answers captions_url and transcript, and refuses an address that is not a .vtt with the field's message", async () => {
    const program = {
      title: "برنامج بترجمة مصاحبة",
      status: "published",
      description: "وصف البرنامج الذي يتجاوز عشرين حرفًا",
      program_type: "documentary",
      host_name: "أحمد",
    };
    const res = await api("POST", "/api/admin/programs", {
      ...program,
      captions_url: "/uploads/programs/captions/a.vtt",
      transcript: "الفقرة الأولى.\n\nالفقرة الثانية.",
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: number };
    const item = (await (await api("GET", `/api/admin/programs/${id}`)).json()) as Record<string, unknown>;
    expect(item).toMatchObject({ captions_url: "/uploads/programs/captions/a.vtt", transcript: "الفقرة الأولى.\n\nالفقرة الثانية." });

    const refused = await api("PATCH", `/api/admin/programs/${id}`, { captions_url: "/uploads/programs/captions/a.srt" });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: { fields: Record<string, string> } }).error.fields.captions_url).toBe(ar.newsroom.v.captionsUrl);
  });

  it.skipIf(!hasChromium)(
    "the editor's captions upload refuses a file that is not WebVTT, in the spec's words, and fills the field with a .vtt it takes",
    async () => {
      const { page, context } = await signedInPage(browser!, { url: server.url }, server.personas.admin);
      await keepEvidence(page, "captions-upload", async () => {
        await open(page, `${server.url}/admin/programs/new`);
        expect(await page.getAttribute('[data-testid="upload-captions_url"]', "accept")).toBe(".vtt,text/vtt");
        expect(await page.getAttribute('[data-testid="input-transcript"]', "rows")).toBe("12");

        await page.setInputFiles('[data-testid="upload-captions_url"]', {
          name: "captions.vtt",
          mimeType: "text/vtt",
          buffer: Buffer.from("1\n00:00:00,000 --> 00:00:02,000\nليست WebVTT\n"),
        });
        await expectToast(page, ar.newsroom.v.captionsNotVtt);
        expect(await page.inputValue('[data-testid="input-captions_url"]')).toBe("");

        await page.setInputFiles('[data-testid="upload-captions_url"]', {
          name: "ترجمة.vtt",
          mimeType: "text/vtt",
          buffer: Buffer.from("WEBVTT\n\n00:00.000 --> 00:02.000\nمرحبًا\n"),
        });
        await expect.poll(() => page.inputValue('[data-testid="input-captions_url"]'), { timeout: 60_000 }).toMatch(/^\/uploads\/programs\/captions\/.+\.vtt$/);
        const stored = await fetch(server.url + (await page.inputValue('[data-testid="input-captions_url"]')));
        expect(stored.headers.get("content-type")).toMatch(/^text\/vtt/);
      });
      await context.close();
    },
  );
});
