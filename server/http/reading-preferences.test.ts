import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { action } from "#app/routes/preferences.ts";
import { getConfig } from "#server/config.server.ts";
import { setCacheEnabled } from "#server/content/cache.server.ts";
import { createPageCache, PAGE_CACHE_DEFAULTS, publicCacheControl, responseCachePolicy } from "./page-cache.server.ts";
import { readingCookie, readingPreferencesOf, readingVariantOf } from "./reading-preferences.server.ts";

describe("the reading cookie (decision 0149)", () => {
  it("reads the choice from a Cookie header beside other cookies, and ignores a value that names nothing", () => {
    expect(readingPreferencesOf("i18nextLng=fr; sahara_reading=dark.large; other=1")).toEqual({ theme: "dark", textSize: "large" });
    expect(readingPreferencesOf(["a=1", "sahara_reading=light.normal"])).toEqual({ theme: "light", textSize: "normal" });
    expect(readingPreferencesOf(null)).toEqual({ theme: "system", textSize: "normal" });
    expect(readingPreferencesOf("sahara_reading=%3Cscript%3E")).toEqual({ theme: "system", textSize: "normal" });
    expect(readingVariantOf("sahara_reading=system.normal")).toBeNull();
    expect(readingVariantOf("sahara_reading=dark.bogus")).toBe("dark.normal");
  });

  it("keeps a choice for a year, and removes the cookie for the default", () => {
    expect(readingCookie({ theme: "dark", textSize: "larger" }, true)).toBe("sahara_reading=dark.larger; Max-Age=31536000; Path=/; Secure; SameSite=Lax");
    expect(readingCookie({ theme: "system", textSize: "normal" })).toBe("sahara_reading=; Max-Age=0; Path=/; SameSite=Lax");
  });
});

describe("POST /preferences (the footer's form without JavaScript)", () => {
  const origin = () => getConfig().publicUrl;
  const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    action({
      request: new Request(`${origin()}/preferences`, {
        method: "POST",
        headers: { Origin: origin(), "Content-Type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams(fields),
      }),
      params: {},
      context: {},
    } as unknown as Parameters<typeof action>[0]);

  it("keeps the choice and goes back to the page, at the form", async () => {
    const answer = (await post({ theme: "dark", size: "large", redirectTo: "/fr/news?page=2" })) as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/fr/news?page=2#reading-preferences");
    expect(answer.headers.get("Set-Cookie")).toMatch(/^sahara_reading=dark\.large; Max-Age=31536000; Path=\/; SameSite=Lax/);
  });

  it("removes the cookie when the reader goes back to the default, and never leaves the site", async () => {
    const answer = (await post({ theme: "system", size: "normal", redirectTo: "//evil.example/x" })) as Response;
    expect(answer.headers.get("Location")).toBe("/#reading-preferences");
    expect(answer.headers.get("Set-Cookie")).toMatch(/^sahara_reading=; Max-Age=0/);
  });

  it("keeps the stored half of the choice when the form sends only the other", async () => {
    const answer = (await post({ size: "larger", redirectTo: "/" }, { Cookie: "sahara_reading=dark.normal" })) as Response;
    expect(answer.headers.get("Set-Cookie")).toMatch(/^sahara_reading=dark\.larger;/);
  });

  it("refuses a value that names nothing with a 400 and sets nothing", async () => {
    for (const fields of [
      { theme: "purple", size: "normal" },
      { theme: "dark", size: "huge" },
    ]) {
      const answer = (await post(fields)) as unknown as { init: ResponseInit | null; data: { ok: boolean; formError: string } };
      expect(answer.init?.status).toBe(400);
      expect(answer.data).toMatchObject({ ok: false, formError: "BAD_REQUEST" });
    }
  });

  it("refuses a post from another site", async () => {
    const refused = await post({ theme: "dark", size: "normal" }, { Origin: "https://evil.example" }).then(
      () => null,
      (error: unknown) => error,
    );
    // Thrown as the app's refusal (server/auth/session.server.ts `deny`), before the body is read.
    expect((refused as { init?: ResponseInit } | null)?.init?.status).toBe(403);
  });
});

describe("the page cache and reading choices", () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  async function start() {
    setCacheEnabled(true);
    const seen: (string | null)[] = [];
    const cache = createPageCache({
      origin: "https://news.example",
      render: (request) => {
        const cookie = request.headers.get("cookie");
        seen.push(cookie);
        const theme = readingPreferencesOf(cookie).theme;
        return Promise.resolve(
          new Response(`<!DOCTYPE html><html data-theme="${theme}"><body>page</body></html>`, { headers: { "Content-Type": "text/html; charset=utf-8" } }),
        );
      },
    });
    const app = express();
    app.use(responseCachePolicy(publicCacheControl(PAGE_CACHE_DEFAULTS)));
    app.use(cache.middleware);
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
    return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, cache };
  }

  it("keeps one public page for readers without a choice and a private copy per choice, rendered with it alone", async () => {
    const s = await start();
    const common = await fetch(s.base + "/news");
    expect(await common.text()).toContain('data-theme="system"');
    expect(common.headers.get("cache-control")).toMatch(/^public/);
    expect(common.headers.get("vary")).toBe("Accept-Encoding");

    const dark = await fetch(s.base + "/news", { headers: { Cookie: "i18nextLng=fr; sahara_reading=dark.large" } });
    expect(await dark.text()).toContain('data-theme="dark"');
    expect(dark.headers.get("x-page-cache")).toBe("MISS");
    expect(dark.headers.get("cache-control")).toBe("private, max-age=0");
    expect(dark.headers.get("vary")).toMatch(/Cookie/);
    // Rendered with the choice alone: not the language cookie, nor anything else the reader sent.
    expect(s.seen).toEqual([null, "sahara_reading=dark.large"]);

    const again = await fetch(s.base + "/news", { headers: { Cookie: "sahara_reading=dark.large" } });
    expect(again.headers.get("x-page-cache")).toBe("HIT");
    expect(await again.text()).toContain('data-theme="dark"');
    // A value that names nothing is the default's page; the common page was never replaced by a reader's copy.
    const forged = await fetch(s.base + "/news", { headers: { Cookie: "sahara_reading=nonsense" } });
    expect(await forged.text()).toContain('data-theme="system"');
    expect(forged.headers.get("x-page-cache")).toBe("HIT");
    expect(await (await fetch(s.base + "/news")).text()).toContain('data-theme="system"');
    expect(s.cache.stats().size).toBe(2);
    expect(s.seen).toHaveLength(2);
  });

  it("still steps aside for a session, a choice or not", async () => {
    const s = await start();
    const app = await fetch(s.base + "/news", { headers: { Cookie: "sahara_reading=dark.large; sahara.session_token=x" } });
    expect(app.status).toBe(404); // nothing behind the cache in this app: the request went past it
    expect(s.seen).toEqual([]);
  });
});
