/**
 * Who is editing, and notes on an item (issue 40, decision 0139), in Chromium against the built server: two
 * browsers (two contexts, two accounts) on one item. The second sees who holds it since when before typing
 * anything (the form read-only), takes over after a confirmation; the first is told at its next heartbeat, its
 * form turns read-only and keeps what it typed (on the device and as the draft's autosave). In Arabic and in
 * French, the two pages at 375 and 1280 px, axe clean at each step. Then the endpoints: the lock's 200/409
 * `{ holder, since }`, takeover and release; a save by someone else than the holder refused with 409 LOCKED; the
 * notes' thread and checks (with and without JavaScript), their permissions, and that no public page or API
 * shows them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { DESKTOP, hasChromium, PHONE } from "#tests/e2e/support/browser.ts";
import type { Persona } from "#tests/helpers/auth.ts";
import { keepEvidence, mainViolations, open, signedInPage, startNewsroomBrowser, stopNewsroomBrowser, type NewsroomServer } from "./support.ts";

const BODY = "نص المقال الكامل الذي يتجاوز عشرين حرفًا بكثير، كتبه المحرر على عجل.";
const EDITOR_RIGHTS = ["content.write", "content.delete", "content.others", "content.publish"] as const;

type Lock = { holder: { id: string; name: string } | null; since: string | null };

describe.skipIf(!hasChromium)("who is editing, and notes on an item", () => {
  let browser: Browser;
  let server: NewsroomServer<"mariem" | "sidi" | "admin" | "reader" | "writer">;
  let base: string;
  let categoryId: string;

  /** A JSON call to the back-office API as `persona`, from the site's own origin. */
  const api = (method: string, path: string, persona: Persona | null, body?: unknown) =>
    fetch(base + path, {
      method,
      headers: { origin: base, "content-type": "application/json", ...(persona ? { cookie: persona.cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function article(title: string, status: "draft" | "published"): Promise<number> {
    const res = await api("POST", "/api/admin/articles", server.personas.admin, {
      title,
      excerpt: "مقتطف المقال للتجربة",
      content: `<p>${BODY}</p>`,
      category_id: categoryId,
      status,
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  }

  const lockNow = async (id: number) => (await (await api("GET", `/api/admin/articles/${id}/lock`, server.personas.admin)).json()) as Lock;

  beforeAll(async () => {
    ({ server, base, browser } = await startNewsroomBrowser({
      mariem: { email: "mariem@locks.test", password: "M4riemPassword", role: "editor", permissions: [...EDITOR_RIGHTS], name: "Mariem" },
      sidi: { email: "sidi@locks.test", password: "S1diPassword", role: "editor", permissions: [...EDITOR_RIGHTS], name: "Sidi" },
      admin: { email: "admin@locks.test", password: "Adm1nPassword", role: "admin" },
      reader: { email: "reader@locks.test", password: "Re4derPassword", role: "editor", permissions: ["contacts.manage"] },
      // content.write alone: another person's item is not theirs to lock or annotate.
      writer: { email: "writer@locks.test", password: "Wr1terPassword", role: "editor", permissions: ["content.write"] },
    }));
    const categories = (await (await fetch(`${base}/api/categories`)).json()) as { id: number }[] | { categories: { id: number }[] };
    categoryId = String((Array.isArray(categories) ? categories : categories.categories)[0].id);
  });

  afterAll(() => stopNewsroomBrowser(browser, server));

  const cases = [
    { lang: "ar", first: PHONE, second: DESKTOP, heldBy: "«Mariem» يحرّر هذا العنصر منذ", tookOver: "«Sidi» تولّى التحرير" },
    { lang: "fr", first: DESKTOP, second: PHONE, heldBy: "«Mariem» modifie cet élément depuis", tookOver: "«Sidi» a repris la main" },
  ] as const;

  for (const c of cases) {
    it(`(${c.lang}) the second editor sees who holds the item since when, takes over; the first is told and keeps its text`, async () => {
      const id = await article(`مقال للتحرير المشترك ${c.lang}`, "draft");
      const url = `${base}/admin/articles/${id}`;
      const typed = `عنوان كتبته مريم ولم تحفظه ${c.lang}`;
      const first = await signedInPage(browser, server, server.personas.mariem, { viewport: c.first, locale: c.lang });
      const second = await signedInPage(browser, server, server.personas.sidi, { viewport: c.second, locale: c.lang });
      const steps = async (page: Page, other: Page) => {
        // Mariem opens it: the lock is hers, the form editable.
        await open(page, url);
        expect(await page.locator('[data-testid="lock-banner"]').count()).toBe(0);
        expect(await page.getAttribute('[data-testid="lock-area"]', "data-read-only")).toBe("false");
        expect((await lockNow(id)).holder).toEqual({ id: server.personas.mariem.id, name: "Mariem" });
        await page.fill('input[name="title"]', typed);

        // Sidi opens it: told before typing anything, the form read-only.
        await open(other, url);
        const banner = other.locator('[data-testid="lock-banner"][data-state="held"]');
        await banner.waitFor();
        const text = await other.textContent('[data-testid="lock-holder"]');
        expect(text).toContain(c.heldBy);
        expect(text).toMatch(/\d{2}:\d{2}/);
        expect(await other.getAttribute('[data-testid="lock-area"]', "data-read-only")).toBe("true");
        expect(await other.isDisabled('input[name="title"]')).toBe(true);
        expect(await other.isDisabled('[data-testid="save"]')).toBe(true);
        expect(await mainViolations(other)).toEqual([]);

        // He takes over, after a confirmation.
        await other.click('[data-testid="lock-take-over"]');
        await other.locator('[data-testid="lock-confirm-dialog"][open]').waitFor();
        expect(await mainViolations(other)).toEqual([]);
        await other.click('[data-testid="lock-confirm"]');
        await other.locator('[data-testid="lock-banner"]').waitFor({ state: "detached" });
        expect(await other.getAttribute('[data-testid="lock-area"]', "data-read-only")).toBe("false");
        expect(await other.isEnabled('input[name="title"]')).toBe(true);
        expect((await lockNow(id)).holder?.id).toBe(server.personas.sidi.id);

        // Mariem is told at her next heartbeat (at most 15 s): read-only, her typing still there.
        const lost = page.locator('[data-testid="lock-banner"][data-state="lost"]');
        await lost.waitFor({ timeout: 25_000 });
        expect(await page.textContent('[data-testid="lock-holder"]')).toContain(c.tookOver);
        expect(await page.getAttribute('[data-testid="lock-area"]', "data-read-only")).toBe("true");
        expect(await page.inputValue('input[name="title"]')).toBe(typed);
        expect(await page.isDisabled('[data-testid="save"]')).toBe(true);
        expect(await mainViolations(page)).toEqual([]);
        // Kept on the device and as her autosaved copy of the draft.
        const kept = await page.evaluate(() => Object.keys(localStorage).map((k) => localStorage.getItem(k) ?? ""));
        expect(kept.some((v) => v.includes(typed))).toBe(true);
        await expect
          .poll(
            async () => {
              const res = await api("GET", `/api/admin/articles/${id}/autosave`, server.personas.mariem);
              return ((await res.json()) as { autosave: { data: Record<string, unknown> } | null }).autosave?.data?.title;
            },
            { timeout: 15_000 },
          )
          .toBe(typed);

        // Sidi adds a note; it shows in the thread with his name.
        await other.fill('[data-testid="note-input"]', `ملاحظة من سيدي ${c.lang}`);
        await other.click('[data-testid="note-submit"]');
        await other.locator('[data-testid="note"]', { hasText: `ملاحظة من سيدي ${c.lang}` }).waitFor();
        expect(await other.textContent('[data-testid="note-author"]')).toBe("Sidi");
        expect(await mainViolations(other)).toEqual([]);

        // Sidi goes back to the list: the lock is released.
        await other.click('[data-testid="back-to-list"]');
        await other.waitForURL((u) => u.pathname === "/admin/articles");
        await expect.poll(async () => (await lockNow(id)).holder, { timeout: 10_000 }).toBeNull();
      };
      try {
        await keepEvidence(first.page, `item-lock-${c.lang}`, () => steps(first.page, second.page));
      } finally {
        await first.context.close();
        await second.context.close();
      }
    });
  }

  it("the lock endpoint: 200 { holder, since } to its holder, 409 to another, ?takeover=1, release; a save by another is 409 LOCKED", async () => {
    const { mariem, sidi, reader, writer } = server.personas;
    const id = await article("مقال لاختبار واجهة القفل", "draft");
    const path = `/api/admin/articles/${id}/lock`;

    const taken = await api("POST", path, mariem);
    expect(taken.status).toBe(200);
    const lock = (await taken.json()) as Lock;
    expect(Object.keys(lock).sort()).toEqual(["holder", "since"]);
    expect(lock.holder).toEqual({ id: mariem.id, name: "Mariem" });
    expect(Date.parse(lock.since!)).not.toBeNaN();
    // Renewed: the same since.
    expect(await (await api("POST", path, mariem)).json()).toEqual(lock);

    const refused = await api("POST", path, sidi);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual(lock);

    // A save by Sidi while Mariem holds it: 409 LOCKED with who and since.
    const save = await api("PATCH", `/api/admin/articles/${id}`, sidi, { title: "عنوان سيدي" });
    expect(save.status).toBe(409);
    expect(await save.json()).toMatchObject({ error: { code: "LOCKED" }, holder: lock.holder, since: lock.since });
    expect((await api("PATCH", `/api/admin/articles/${id}`, mariem, { title: "عنوان مريم الجديد" })).status).toBe(200);

    const over = await api("POST", `${path}?takeover=1`, sidi);
    expect(over.status).toBe(200);
    expect(((await over.json()) as Lock).holder?.id).toBe(sidi.id);
    expect((await api("POST", path, mariem)).status).toBe(409);

    // Release: only the holder's counts.
    expect(await (await api("DELETE", path, mariem)).json()).toEqual({ released: false });
    expect(await (await api("DELETE", path, sidi)).json()).toEqual({ released: true });
    expect(await lockNow(id)).toEqual({ holder: null, since: null });

    // A bad query, a missing item, no access.
    expect((await api("POST", `${path}?takeover=yes`, mariem)).status).toBe(400);
    expect((await api("POST", `/api/admin/articles/999999/lock`, mariem)).status).toBe(404);
    expect((await api("POST", path, reader)).status).toBe(403);
    const notYours = await api("POST", path, writer);
    expect(notYours.status).toBe(403);
    expect(((await notYours.json()) as { error: { code: string } }).error.code).toBe("NOT_YOUR_ITEM");
    expect((await api("POST", path, null)).status).toBe(401);
    expect((await api("PUT", path, mariem)).status).toBe(405);
  });

  it("notes: POST { text } answers 201 with the note, GET lists them; bounded text; with the item's write permission; never public", async () => {
    const { mariem, sidi, reader, writer } = server.personas;
    const id = await article("مقال منشور عليه ملاحظة داخلية", "published");
    const path = `/api/admin/articles/${id}/notes`;
    const secret = "ملاحظة داخلية سرية لا يراها القرّاء";

    const made = await api("POST", path, mariem, { text: secret });
    expect(made.status).toBe(201);
    const note = (await made.json()) as { id: number; author: { id: string; name: string }; text: string; at: string };
    expect(Object.keys(note).sort()).toEqual(["at", "author", "id", "text"]);
    expect(note.author).toEqual({ id: mariem.id, name: "Mariem" });
    expect(note.text).toBe(secret);

    // Without JavaScript: a plain form post, back to the item's thread.
    const form = await fetch(base + path, {
      method: "POST",
      redirect: "manual",
      headers: { origin: base, cookie: sidi.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ text: "ردّ سيدي" }).toString(),
    });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe(`/admin/articles/${id}#notes`);

    const listed = (await (await api("GET", path, sidi)).json()) as { notes: { text: string; author: { name: string } }[] };
    expect(listed.notes.map((n) => [n.author.name, n.text])).toEqual([
      ["Mariem", secret],
      ["Sidi", "ردّ سيدي"],
    ]);

    for (const text of ["", "   ", "ن".repeat(2001)]) {
      const bad = await api("POST", path, mariem, { text });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { code: string; fields: Record<string, string> } }).error).toMatchObject({
        code: "INVALID_NOTE",
        fields: { text: expect.any(String) as string },
      });
    }
    expect((await api("POST", path, mariem, { note: "x" })).status).toBe(400);
    expect((await api("POST", `/api/admin/articles/999999/notes`, mariem, { text: "x" })).status).toBe(404);
    expect((await api("GET", path, reader)).status).toBe(403);
    expect((await api("POST", path, reader, { text: "x" })).status).toBe(403);
    expect((await api("POST", path, writer, { text: "x" })).status).toBe(403);
    expect((await api("GET", path, writer)).status).toBe(403);
    expect((await api("GET", path, null)).status).toBe(401);

    // Shown in the revisions page's timeline, never on the public site or the public API.
    const revisions = await signedInPage(browser, server, mariem, { viewport: DESKTOP, locale: "fr" });
    try {
      await open(revisions.page, `${base}/admin/articles/${id}/revisions`);
      expect(await revisions.page.textContent('[data-testid="revision-notes"]')).toContain(secret);
    } finally {
      await revisions.context.close();
    }
    const item = (await (await api("GET", `/api/admin/articles/${id}`, mariem)).json()) as { url: string };
    for (const publicPath of [item.url, "/api/articles", "/", "/rss.xml", `/search?q=${encodeURIComponent("سرية")}`]) {
      const res = await fetch(base + publicPath);
      expect(res.status, publicPath).toBe(200);
      expect(await res.text(), publicPath).not.toContain(secret);
    }
  });
});
