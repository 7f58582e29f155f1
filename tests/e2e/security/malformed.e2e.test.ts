/**
 * The malformed-request corpus (tests/helpers/malformed.ts) against the built server with the demo content and
 * an administrator's session: every route of app/routes.ts with bad Host forms, other request-line versions,
 * `//` and bidi controls in the path, control characters in the path and the query, every method; every field
 * of every JSON write and of every form the pages show, with NUL, C0, DEL and C1 characters in it. No answer is
 * a 5xx, every probe is answered, and none of it is logged at error level (client errors are the client's).
 * Also: every answer that depends on the session, in any format, is private.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCorpus, countByStatus, routePatterns, runProbes } from "#tests/helpers/malformed.ts";
import { startAuthServer, type AuthServer } from "#tests/e2e/auth/support.ts";
import { neutralPath } from "#domain/addresses.ts";

let server: AuthServer<"admin">;

beforeAll(async () => {
  server = await startAuthServer({ personas: { admin: { email: "admin@malformed.test", password: "Passw0rdM", role: "admin" } }, seed: true });
});

afterAll(async () => {
  await server?.stop();
});

/** Error-level lines of the server's log (pino level 50 and above). */
const errorLines = (output: string) => output.split("\n").filter((line) => /"level":(?:5\d|60)\b/.test(line));

describe("every session-dependent answer is private, in any format", () => {
  // Pages, not files (an image's answer depends on no session), in Arabic and French: English's twins are the same routes.
  const publicPages = () =>
    routePatterns().filter((p) => !p.startsWith("/en") && !/^\/(?:admin|api|auth|setup|debug|language)|[:*]|\.[a-z0-9]+$/.test(neutralPath(p)));

  it("marks a signed-in reader's .data and HTML answers private, no-store, varying with the cookie", async () => {
    const pages = publicPages();
    expect(pages.length).toBeGreaterThan(15);
    for (const page of pages) {
      for (const url of [page, page === "/" ? "/_root.data" : `${page}.data`]) {
        const res = await fetch(server.url + url, { headers: { cookie: server.personas.admin.cookie }, redirect: "manual" });
        await res.arrayBuffer();
        expect(res.headers.get("cache-control"), `${url}: ${res.status}`).toMatch(/\bprivate\b.*\bno-store\b|\bno-store\b.*\bprivate\b/);
        expect(res.headers.get("vary") ?? "", url).toMatch(/\bCookie\b/i);
      }
    }
  });

  it("lets a shared cache keep an anonymous reader's .data like its page, one copy per address (decision 0143)", async () => {
    for (const url of ["/fr/news.data", "/en.data"]) {
      const other = await fetch(server.url + url, { headers: { cookie: "i18nextLng=ar" } });
      await other.arrayBuffer();
      expect(other.status, url).toBe(200);
      expect(other.headers.get("cache-control"), url).toMatch(/^public\b/);
      expect(other.headers.get("vary") ?? "", url).not.toMatch(/Cookie|Accept-Language/i);
    }
    const res = await fetch(`${server.url}/news.data`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/^public\b/);
    expect(res.headers.get("vary") ?? "").not.toMatch(/Cookie|Accept-Language/i);
    // The signed-in reader's data carries the e-mail; the anonymous one does not.
    const signedIn = await (await fetch(`${server.url}/news.data`, { headers: { cookie: server.personas.admin.cookie } })).text();
    expect(signedIn).toContain("admin@malformed.test");
    expect(await res.text()).not.toContain("admin@malformed.test");
  });

  it("keeps no anonymous .data redirect in any cache (React Router's 202 naming the target is no-store)", async () => {
    // A detail page named by its id redirects to its slug's address.
    const { items } = (await (await fetch(`${server.url}/api/news`)).json()) as { items: { id: number }[] };
    const res = await fetch(`${server.url}/news/${items[0].id}.data`, { redirect: "manual" });
    const body = await res.text();
    expect(res.status, body.slice(0, 200)).toBe(202);
    expect(body).toContain("redirect");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

/** `npm run test:malformed`: every character of each kind, over 8,000 requests; `npm test` takes a few of each. */
const FULL = process.env.MALFORMED_FULL === "1";

describe("the malformed-request corpus", () => {
  it(`answers every probe, none with a 5xx, and logs none of them as an error (${FULL ? "whole" : "sampled"})`, { timeout: 900_000 }, async () => {
    const before = server.output().length;
    const { probes, paths, forms } = await buildCorpus(server.url, {
      host: `127.0.0.1:${server.port}`,
      origin: server.url,
      cookie: server.personas.admin.cookie,
      full: FULL,
    });
    // Every route of the table is in it, with its real parameters where the demo content has them.
    expect(paths.length).toBeGreaterThan(routePatterns().length);
    expect(forms).toBeGreaterThan(10);
    const results = await runProbes(server.port, probes);
    const counts = countByStatus(results);
    console.log(`malformed corpus: ${results.length} requests over ${paths.length} paths and ${forms} forms; by status ${JSON.stringify(counts)}`);
    const failed = results.filter(({ answer }) => answer.status === null || answer.status >= 500);
    expect(
      failed.slice(0, 20).map(({ probe, answer }) => `${probe.group} — ${probe.name}: ${answer.status ?? answer.ended} ${answer.body.slice(0, 120)}`),
      `${failed.length} of ${results.length}`,
    ).toEqual([]);
    expect(results.length).toBeGreaterThan(FULL ? 8000 : 2000);
    // The one POST taken from any origin, a mail client's one-click unsubscribe: refused (bad tokens, other
    // bodies) with a 4xx, never by React Router's origin check with an error line.
    const oneClick = results.filter(({ probe }) => probe.group === "one-click unsubscribe");
    expect(oneClick.length).toBeGreaterThan(20);
    expect(
      oneClick.filter(({ answer }) => answer.status !== 400 && answer.status !== 403).map(({ probe, answer }) => `${probe.name}: ${answer.status}`),
    ).toEqual([]);
    const log = server.output().slice(before);
    expect(errorLines(log).slice(0, 10)).toEqual([]);
    // Client errors are there, at info with their status: React Router's 404s and 405s, refused bodies.
    expect(log).toMatch(/"level":30[^\n]*"status":40\d[^\n]*"msg":"client error"/);
  });
});
