/**
 * Who may delete a media library file (issue 39, decision 0136): a writer (content.write without content.delete)
 * is refused 403 by the JSON API and by the library screen's action, forced or not, and the file stays served;
 * the screen offers them no delete button. An editor who may delete is told which published items use a file
 * (409 FILE_IN_USE with the titles; the screen's confirmation names them and marks the published ones), then
 * deletes it when forcing, and its public address answers 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { hasChromium, launchBrowser } from "#tests/e2e/support/browser.ts";
import { post } from "#tests/e2e/auth/support.ts";
import { contentEditor, open, signedInPage, startNewsroomServer, type NewsroomServer } from "#tests/e2e/newsroom/support.ts";
import type { LibraryFile, LibraryPage, LibraryUsage } from "#domain/library.ts";
import { ISSUE40_RIGHTS } from "#tests/helpers/auth.ts";

type Who = "writer" | "editor";

describe("deleting a media library file", () => {
  let server: NewsroomServer<Who>;
  let browser: Browser | undefined;
  let base: string;
  /** Two demo pictures that published items use: one for the API, one for the screen. */
  let used: LibraryFile[] = [];

  const call = (method: string, pathname: string, who: Who) =>
    fetch(base + pathname, { method, headers: { cookie: server.personas[who].cookie, origin: base } });
  const served = async (url: string) => (await fetch(base + url)).status;

  beforeAll(async () => {
    server = await startNewsroomServer<Who>({
      writer: { email: "library-writer@newsroom.test", password: "Passw0rdW", role: "editor", permissions: ["content.write", ...ISSUE40_RIGHTS] },
      editor: contentEditor("library-deleter@newsroom.test"),
    });
    base = server.url;
    const images = (await (await call("GET", "/api/admin/library?kind=image&pageSize=40", "editor")).json()) as LibraryPage;
    used = images.items.filter((i) => i.usageCount > 0).slice(0, 2);
    expect(used).toHaveLength(2);
    if (hasChromium) browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("refuses a writer 403 through the API and the screen's action, forced or not; the file stays served", async () => {
    const [file] = used;
    expect(await served(file.url)).toBe(200);
    for (const query of ["", "?force=1"]) {
      const refused = await call("DELETE", `/api/admin/library/${file.id}${query}`, "writer");
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("PERMISSION_NEEDED");
    }
    for (const force of [{}, { force: "1" }] as Record<string, string>[]) {
      const page = await post(base, "/admin/library", { intent: "delete", id: String(file.id), ...force }, { cookie: server.personas.writer.cookie });
      expect(page.status).toBe(403);
    }
    // Saving its texts stays the writer's to do.
    expect((await call("GET", `/api/admin/library/${file.id}`, "writer")).status).toBe(200);
    expect(await served(file.url)).toBe(200);
  });

  it("tells an editor who may delete which published items use it, then deletes it when forced", async () => {
    const [file] = used;
    const refused = await call("DELETE", `/api/admin/library/${file.id}`, "editor");
    expect(refused.status).toBe(409);
    const answer = (await refused.json()) as { error: { code: string; message: string }; usage: LibraryUsage[] };
    expect(answer.error.code).toBe("FILE_IN_USE");
    expect(answer.usage.length).toBe(file.usageCount);
    expect(answer.usage.some((u) => u.published && u.title.length > 0)).toBe(true);
    expect(await served(file.url)).toBe(200);

    const done = await call("DELETE", `/api/admin/library/${file.id}?force=1`, "editor");
    expect(done.status).toBe(200);
    expect(((await done.json()) as { deleted: boolean; usage: LibraryUsage[] }).usage).toEqual(answer.usage);
    expect(await served(file.url)).toBe(404);
    expect((await call("GET", `/api/admin/library/${file.id}`, "editor")).status).toBe(404);
  });

  it.skipIf(!hasChromium)(
    "offers the delete button only to whom may delete; the confirmation names the published items that will lose the file",
    async () => {
      const file = used[1];
      const writer = await signedInPage(browser!, server, server.personas.writer, { viewport: { width: 1280, height: 900 } });
      try {
        await open(writer.page, `${base}/admin/library?file=${file.id}`);
        await writer.page.locator('[data-testid="library-details"]').waitFor();
        await writer.page.locator('[data-testid="library-save"]').waitFor();
        expect(await writer.page.locator('[data-testid="library-delete"]').count()).toBe(0);
      } finally {
        await writer.context.close();
      }

      const editor = await signedInPage(browser!, server, server.personas.editor, { viewport: { width: 1280, height: 900 } });
      try {
        const { page } = editor;
        await open(page, `${base}/admin/library?file=${file.id}`);
        await page.click('[data-testid="library-delete"]');
        const confirm = page.locator('[data-testid="library-delete-confirm"]');
        await confirm.waitFor();
        const uses = confirm.locator('[data-testid="library-delete-usage"] li');
        expect(await uses.count()).toBe(file.usageCount);
        expect(await confirm.locator('[data-testid="library-delete-usage"] li[data-published="true"]').first().textContent()).toContain("(منشور)");
        await page.click('[data-testid="library-delete-submit"]');
        await page.locator('[data-testid="library-details"]').waitFor({ state: "hidden" });
        await expect.poll(() => served(file.url)).toBe(404);
      } finally {
        await editor.context.close();
      }
    },
    120_000,
  );
});
