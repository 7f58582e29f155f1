/**
 * The newsroom's live desk (issue 44) in Chromium against the built server, in the Arabic and the French back-office:
 * an editor starts a coverage's live coverage from its edit page; two editors (two contexts, a phone and a desktop)
 * post to it at the same moment and each sees the other's entry; edit in place, pin, key event, delete after a
 * question; a reader's page open in a third context shows each change without a reload. Over a poor link: a post
 * made offline waits in the outbox and goes once the browser is back online; a post whose answer is lost is sent
 * again and stored once (the server de-duplicates by client_key); one the network refused survives a reload and
 * goes as the page opens again. The desk at 375 px does not overflow and is axe clean, its dialogs too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { LiveEntry } from "#domain/live.ts";
import { DESKTOP, hasChromium, newPage, PHONE } from "#tests/e2e/support/browser.ts";
import { horizontalOverflow } from "#tests/e2e/support/a11y.ts";
import { validInput } from "#tests/helpers/content.ts";
import type { Persona } from "#tests/helpers/auth.ts";
import {
  bodyHolds,
  keepEvidence,
  mainViolations,
  open,
  signedInPage,
  startNewsroomBrowser,
  stopNewsroomBrowser,
  type NewsroomServer,
} from "../newsroom/support.ts";

const EDITOR_RIGHTS = ["content.write", "content.delete", "content.others", "content.publish"] as const;
/**
 * A wait for a reader's page to show an entry, bounded far above the "within 2 s" (a figure that
 * `npm run bench -- live` measures): a test waits for a state, it does not time it.
 */
const READER_WAIT_MS = 15_000;

type AdminEntries = { live: boolean; started_at: string | null; ended_at: string | null; cursor: number; entries: LiveEntry[]; deleted: number[] };

describe.skipIf(!hasChromium)("the live desk: start, post from two desks at once, edit, pin, key event, delete, the outbox", () => {
  let browser: Browser;
  let server: NewsroomServer<"mariem" | "sidi">;
  let base: string;
  let categoryId: number;

  const api = (method: string, path: string, persona: Persona, body?: unknown) =>
    fetch(base + path, {
      method,
      headers: { origin: base, "content-type": "application/json", cookie: persona.cookie },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const entriesOf = async (id: number) =>
    ((await (await api("GET", `/api/admin/coverage/${id}/entries`, server.personas.mariem)).json()) as AdminEntries).entries;

  async function coverage(title: string): Promise<{ id: number; url: string }> {
    const res = await api("POST", "/api/admin/coverage", server.personas.mariem, validInput("coverage", categoryId, title));
    expect(res.status).toBe(201);
    return (await res.json()) as { id: number; url: string };
  }

  beforeAll(async () => {
    ({ server, base, browser } = await startNewsroomBrowser({
      mariem: { email: "mariem@desk.test", password: "M4riemPassword", role: "editor", permissions: [...EDITOR_RIGHTS], name: "Mariem" },
      sidi: { email: "sidi@desk.test", password: "S1diPassword", role: "editor", permissions: [...EDITOR_RIGHTS], name: "Sidi" },
    }));
    const categories = (await (await fetch(`${base}/api/categories`)).json()) as { id: number }[] | { categories: { id: number }[] };
    categoryId = (Array.isArray(categories) ? categories : categories.categories)[0].id;
  });

  afterAll(() => stopNewsroomBrowser(browser, server));

  const entry = (page: Page, text: string) => page.locator('[data-testid="desk-entry"]', { hasText: text });

  /** Types an entry in the composer and posts it; the composer is empty (and focused) again once it is sent or queued. */
  async function postEntry(page: Page, text: string) {
    const editable = page.locator('[data-testid="editor-entry_body"]');
    await editable.click();
    await page.keyboard.insertText(text);
    await bodyHolds(page, text, "entry_body");
    await page.click('[data-testid="entry-post"]');
    await page.waitForFunction(() => {
      const input = document.querySelector<HTMLInputElement>('[data-testid="input-entry_body"]');
      return input !== null && input.value === "" && document.activeElement?.getAttribute("data-testid") === "editor-entry_body";
    });
  }

  /** Waits until the desk has read the coverage's state (and says whether it is live). */
  const deskLive = (page: Page, live: boolean) => page.locator(`[data-testid="live-status"][data-live="${live}"]`).waitFor();

  const cases = [
    { lang: "ar", liveSince: "التغطية مباشرة منذ", ended: "انتهت التغطية المباشرة", prefix: "" },
    { lang: "fr", liveSince: "En direct depuis", ended: "Direct terminé", prefix: "/fr" },
  ] as const;

  for (const c of cases) {
    it(`(${c.lang}) two editors post to a live coverage at once; edits, pins, key events and deletions reach the other desk and a reader`, async () => {
      const item = await coverage(`تغطية مباشرة للانتخابات ${c.lang}`);
      const url = `${base}/admin/coverage/${item.id}`;
      const mariem = await signedInPage(browser, server, server.personas.mariem, { viewport: PHONE, locale: c.lang });
      const sidi = await signedInPage(browser, server, server.personas.sidi, { viewport: DESKTOP, locale: c.lang });
      const reader = await newPage(browser, { viewport: DESKTOP, locale: c.lang });
      const { page } = mariem;
      const other = sidi.page;
      // A failure keeps the editor's page and the reader's (tests/e2e/screenshots/).
      const steps = (run: () => Promise<void>) => keepEvidence(page, `live-desk-${c.lang}`, () => keepEvidence(reader.page, `live-reader-${c.lang}`, run));
      await steps(async () => {
        await open(page, url);
        await open(other, url);
        await deskLive(page, false);
        await deskLive(other, false);

        // At 375 px: one column, nothing wider than the screen, axe clean.
        await page.locator('[data-testid="editor-entry_body"]').waitFor();
        await page.locator('[data-testid="live-desk"]').scrollIntoViewIfNeeded();
        expect(await horizontalOverflow(page)).toBe(0);
        expect(await mainViolations(page)).toEqual([]);

        // Mariem starts it; Sidi's desk learns it at its next poll.
        await page.click('[data-testid="live-toggle"]');
        await deskLive(page, true);
        expect(await page.textContent('[data-testid="live-status"]')).toContain(c.liveSince);
        await deskLive(other, true);

        // A reader has the coverage's page open, at the start of its entries.
        await reader.page.goto(`${base}${c.prefix}${item.url}`);
        const readerList = reader.page.locator('[data-testid="live-entries"]');
        await readerList.scrollIntoViewIfNeeded();
        const readerEntry = (id: number) => reader.page.locator(`[data-testid="live-entry"][data-entry-id="${id}"]`);

        // Both post at the same moment; each desk shows both entries, newest first.
        const fromMariem = `مريم: بدأ فرز الأصوات في نواكشوط ${c.lang}`;
        const fromSidi = `سيدي: نسبة المشاركة 62% في أطار ${c.lang}`;
        await Promise.all([postEntry(page, fromMariem), postEntry(other, fromSidi)]);
        for (const desk of [page, other]) {
          await entry(desk, fromMariem).waitFor();
          await entry(desk, fromSidi).waitFor();
        }
        const stored = await entriesOf(item.id);
        expect(stored.map((e) => e.author).sort()).toEqual(["Mariem", "Sidi"]);
        const ids = stored.map((e) => e.id).sort((a, b) => b - a);
        expect(await page.locator('[data-testid="desk-entry"]').evaluateAll((els) => els.map((el) => Number(el.getAttribute("data-entry-id"))))).toEqual(ids);
        const mariemId = stored.find((e) => e.author === "Mariem")!.id;
        const sidiId = stored.find((e) => e.author === "Sidi")!.id;
        for (const id of ids) await readerEntry(id).waitFor({ timeout: READER_WAIT_MS });

        // Sidi corrects Mariem's entry in place; her desk and the reader show the edit.
        const corrected = `مريم: انتهى فرز الأصوات في نواكشوط ${c.lang}`;
        await entry(other, fromMariem).locator('[data-testid="desk-entry-edit"]').click();
        const editable = other.locator('[data-testid="editor-edit_body"]');
        await editable.click();
        await other.keyboard.press("ControlOrMeta+A");
        await other.keyboard.insertText(corrected);
        await bodyHolds(other, corrected, "edit_body");
        await other.click('[data-testid="edit-post"]');
        await entry(other, corrected).locator('[data-testid="desk-entry-edited"]').waitFor();
        await entry(page, corrected).waitFor();
        await readerEntry(mariemId).filter({ hasText: corrected }).waitFor({ timeout: READER_WAIT_MS });

        // Mariem pins Sidi's entry and makes it a key event.
        await entry(page, fromSidi).locator('[data-testid="desk-entry-pin"]').click();
        await page.locator(`[data-testid="desk-entry"][data-entry-id="${sidiId}"][data-pinned="true"]`).waitFor();
        await entry(page, fromSidi).locator('[data-testid="desk-entry-key"]').click();
        await page.locator(`[data-testid="desk-entry"][data-entry-id="${sidiId}"][data-key-event="true"]`).waitFor();
        await other.locator(`[data-testid="desk-entry"][data-entry-id="${sidiId}"][data-pinned="true"][data-key-event="true"]`).waitFor();
        await reader.page.locator(`[data-testid="live-entry"][data-entry-id="${sidiId}"][data-pinned="true"]`).waitFor({ timeout: READER_WAIT_MS });
        await reader.page.locator('[data-testid="live-key-events"]', { hasText: fromSidi }).waitFor({ timeout: READER_WAIT_MS });
        // …and takes the pin off again.
        await entry(page, fromSidi).locator('[data-testid="desk-entry-pin"]').click();
        await page.locator(`[data-testid="desk-entry"][data-entry-id="${sidiId}"]:not([data-pinned])`).waitFor();

        // Sidi deletes his entry after a question: gone from both desks and from the reader's page.
        await entry(other, fromSidi).locator('[data-testid="desk-entry-delete"]').click();
        await other.locator('[data-testid="live-delete-dialog"][open]').waitFor();
        expect(await mainViolations(other)).toEqual([]);
        await other.click('[data-testid="live-delete-confirm"]');
        await entry(other, fromSidi).waitFor({ state: "detached" });
        await entry(page, fromSidi).waitFor({ state: "detached" });
        await readerEntry(sidiId).waitFor({ state: "detached", timeout: READER_WAIT_MS });
        expect((await entriesOf(item.id)).map((e) => e.id)).toEqual([mariemId]);

        // A post the server refuses (an embed from a site it does not take) stays in the composer with why, to correct.
        const refused = `مريم: رابط من موقع غير مقبول ${c.lang}`;
        await page.fill('[data-testid="entry-embed"]', "https://example.com/posts/1");
        await page.locator('[data-testid="editor-entry_body"]').click();
        await page.keyboard.insertText(refused);
        await bodyHolds(page, refused, "entry_body");
        await page.click('[data-testid="entry-post"]');
        await page.locator('[data-testid="entry-error"]', { hasText: "فيسبوك" }).waitFor();
        await bodyHolds(page, refused, "entry_body");
        expect(await page.inputValue('[data-testid="entry-embed"]')).toBe("https://example.com/posts/1");
        await page.locator('[data-testid="entry-outbox"][data-count="0"]').waitFor();
        expect(await mainViolations(page)).toEqual([]);
        await page.fill('[data-testid="entry-embed"]', "");
        await page.click('[data-testid="entry-post"]');
        await entry(page, refused).waitFor();
        await page.locator('[data-testid="entry-error"]').waitFor({ state: "detached" });

        // Offline: the post waits in the outbox (the composer is free for the next), and goes once back online.
        const offline = `مريم: وصول النتائج من كيفة ${c.lang}`;
        await mariem.context.setOffline(true);
        await postEntry(page, offline);
        await page.locator('[data-testid="entry-outbox"][data-count="1"][data-state="waiting"]').waitFor();
        expect(await mainViolations(page)).toEqual([]);
        await mariem.context.setOffline(false);
        await page.locator('[data-testid="entry-outbox"][data-count="0"]').waitFor();
        await entry(page, offline).waitFor();
        await entry(other, offline).waitFor();
        expect((await entriesOf(item.id)).filter((e) => e.body.includes(offline))).toHaveLength(1);

        // The answer lost on the way back: the post is sent again and stored once.
        const lostAnswer = `مريم: فرز 80% من المكاتب ${c.lang}`;
        let lost = 0;
        await page.route(`**/api/admin/coverage/${item.id}/entries`, async (route) => {
          if (route.request().method() !== "POST" || lost > 0) return route.fallback();
          lost += 1;
          await route.fetch();
          await route.abort("connectionreset");
        });
        await postEntry(page, lostAnswer);
        await entry(page, lostAnswer).waitFor();
        await page.locator('[data-testid="entry-outbox"][data-count="0"]').waitFor();
        await page.unrouteAll();
        expect(lost).toBe(1);
        expect((await entriesOf(item.id)).filter((e) => e.body.includes(lostAnswer))).toHaveLength(1);

        // A post the network refuses stays on the device through a reload, and goes as the desk opens again.
        const kept = `مريم: النتائج النهائية بعد قليل ${c.lang}`;
        await page.route(`**/api/admin/coverage/${item.id}/entries`, (route) =>
          route.request().method() === "POST" ? route.abort("internetdisconnected") : route.fallback(),
        );
        await postEntry(page, kept);
        await page.locator('[data-testid="entry-outbox"][data-count="1"]').waitFor();
        await page.unrouteAll();
        await open(page, url);
        await entry(page, kept).waitFor();
        await page.locator('[data-testid="entry-outbox"][data-count="0"]').waitFor();
        expect((await entriesOf(item.id)).filter((e) => e.body.includes(kept))).toHaveLength(1);
        await readerEntry((await entriesOf(item.id))[0].id).waitFor({ timeout: READER_WAIT_MS });

        // Ending asks first; the desk then says when it ran.
        await page.click('[data-testid="live-toggle"]');
        await page.locator('[data-testid="live-end-dialog"][open]').waitFor();
        expect(await mainViolations(page)).toEqual([]);
        await page.click('[data-testid="live-end-confirm"]');
        await deskLive(page, false);
        expect(await page.textContent('[data-testid="live-status"]')).toContain(c.ended);
        await deskLive(other, false);
        expect(await horizontalOverflow(page)).toBe(0);
      });
      await reader.context.close();
      await mariem.context.close();
      await sidi.context.close();
    });
  }
});
