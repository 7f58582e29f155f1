/**
 * A local HTTP server speaking enough of the Graph API v19.0 for the social feed: GET /me, GET
 * /v19.0/{page}, GET /v19.0/{page}/posts with fields, limit and cursor paging (its `paging.next` carries the
 * access token, as Facebook's does), and the post pictures. A test switches an endpoint to answer an error
 * status, garbage, or nothing at all (the request is held open until `release()` or `close()`).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { makePng } from "./png.ts";

export const PNG = makePng();

export type FakePost = Record<string, unknown> & { id: string };
export type Endpoint = "me" | "page" | "posts" | "image";
export type Mode = { kind: "ok" } | { kind: "status"; status: number; echoToken?: boolean } | { kind: "hang" } | { kind: "garbage" };

export type FakeGraph = {
  url: string;
  token: string;
  pageId: string;
  posts: FakePost[];
  /** Every request, the token replaced by a marker. */
  requests: { endpoint: Endpoint | "other"; path: string; query: Record<string, string>; tokenOk: boolean }[];
  setMode: (endpoint: Endpoint, mode: Mode) => void;
  /** Requests being held open by a "hang" mode. */
  hanging: () => number;
  /** Resolves once `n` requests are being held open. */
  untilHanging: (n?: number) => Promise<void>;
  /** Ends held requests (with a 500) so the server under test sees them finish. */
  release: () => void;
  count: (endpoint: Endpoint) => number;
  close: () => Promise<void>;
};

const ARABIC = [
  "افتتاح مهرجان مدائن التراث في وادان بمشاركة واسعة من الفرق الشعبية والحرفيين القادمين من مختلف ولايات الوطن، وسط حضور جماهيري كبير وأمسيات شعرية تمتد حتى الفجر. #تراث",
  "قافلة ثقافية تجوب قرى آدرار لتوثيق الحكايات الشعبية والأمثال الحسانية قبل أن يطويها النسيان.",
];
const FRENCH = [
  "Le festival des villes anciennes s'ouvre à Ouadane : artisans, poètes et troupes venus de tout le pays. Programme complet : https://sahara-media.mr/programme",
  "Nouvelle émission « Racines » : l'histoire des émirats du Trarza racontée par ceux qui la transmettent.",
];
const BILINGUAL = "افتتاح معرض الكتاب في نواكشوط (الدورة 12)!\nOuverture du salon du livre de Nouakchott (12e édition) !";

/** Posts in Arabic, French and both, with pictures, a broken picture, a shared link and a photo without text. */
export function samplePosts(count: number, { pageId, imageBase }: { pageId: string; imageBase: string }): FakePost[] {
  return Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    const kind = i % 3;
    const message = kind === 0 ? ARABIC[((i / 3) % 2) | 0] : kind === 1 ? FRENCH[(((i - 1) / 3) % 2) | 0] : BILINGUAL;
    const created = new Date(Date.UTC(2024, 4, 20, 10) - i * 86_400_000).toISOString().replace(/\.000Z$/, "+0000");
    const post: FakePost = {
      id: `${pageId}_${1000 + n}`,
      message: `${message} [${n}]`,
      created_time: created,
      permalink_url: `https://www.facebook.com/${pageId}/posts/${1000 + n}`,
      from: { name: "Sahara Média", id: pageId },
      full_picture: `${imageBase}/img/${n}.png`,
    };
    if (n === 5) post.full_picture = `${imageBase}/img/broken.png`;
    if (n === 7) delete post.message;
    if (n === 2) {
      post.attachments = {
        data: [
          {
            type: "share",
            media_type: "link",
            title: "Programme du festival",
            url: "https://l.facebook.com/l.php?u=https%3A%2F%2Fsahara-media.mr%2Fprogramme&h=AT0",
          },
        ],
      };
    }
    return post;
  });
}

export async function startFakeGraph({ token, pageId = "104857600123", count = 20 }: { token: string; pageId?: string; count?: number }): Promise<FakeGraph> {
  const modes: Record<Endpoint, Mode> = { me: { kind: "ok" }, page: { kind: "ok" }, posts: { kind: "ok" }, image: { kind: "ok" } };
  const held = new Set<http.ServerResponse>();
  const waiters: { n: number; resolve: () => void }[] = [];
  const wake = () => {
    for (const w of [...waiters]) {
      if (held.size < w.n) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  const fake = { url: "", token, pageId, posts: [] as FakePost[], requests: [] as FakeGraph["requests"] };

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json; charset=UTF-8" });
    res.end(JSON.stringify(body));
  };
  const oauthError = (res: http.ServerResponse, status: number, echo = false) =>
    json(res, status, {
      error: {
        message: echo ? `Error validating access token: ${token} has expired` : "Invalid OAuth access token - Cannot parse access token",
        type: "OAuthException",
        code: 190,
        fbtrace_id: "AbCdEf",
      },
    });

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", fake.url);
    const query = Object.fromEntries(url.searchParams);
    const tokenOk = url.searchParams.get("access_token") === token;
    if ("access_token" in query) query.access_token = "[token]";
    const segments = url.pathname.split("/").filter(Boolean);
    const endpoint: Endpoint | "other" =
      segments[0] === "me"
        ? "me"
        : segments[0] === "img"
          ? "image"
          : segments[0] === "v19.0" && segments.length === 2
            ? "page"
            : segments[0] === "v19.0" && segments[2] === "posts"
              ? "posts"
              : "other";
    fake.requests.push({ endpoint, path: url.pathname, query, tokenOk });
    if (endpoint === "other") return json(res, 404, { error: { message: "Unknown path", code: 803 } });

    const mode = modes[endpoint];
    if (mode.kind === "hang") {
      held.add(res);
      res.on("close", () => held.delete(res));
      return wake();
    }
    if (mode.kind === "garbage") {
      res.writeHead(200, { "Content-Type": "text/html" });
      return res.end("<html>not json</html>");
    }
    if (mode.kind === "status") return oauthError(res, mode.status, mode.echoToken);

    if (endpoint === "image") {
      if (segments[1] === "broken.png") return json(res, 404, { error: "gone" });
      res.writeHead(200, { "Content-Type": "image/png", "Content-Length": PNG.length });
      return res.end(PNG);
    }
    if (!tokenOk) return oauthError(res, 400);
    if (endpoint === "me") return json(res, 200, { id: "900100", name: "Sahara Média" });
    if (segments[1] !== pageId) return json(res, 404, { error: { message: `Object with ID '${segments[1]}' does not exist`, code: 100 } });
    if (endpoint === "page") return json(res, 200, { id: pageId, name: "Sahara Média" });

    const limit = Math.min(100, Number(url.searchParams.get("limit") ?? 25) || 25);
    const after = url.searchParams.get("after");
    const start = after ? Number(Buffer.from(after, "base64url").toString("utf8").replace("post:", "")) : 0;
    const fields = (url.searchParams.get("fields") ?? "id,message,created_time").split(",");
    const slice = fake.posts.slice(start, start + limit).map((p) => Object.fromEntries(Object.entries(p).filter(([k]) => fields.includes(k))));
    const cursor = (i: number) => Buffer.from(`post:${i}`).toString("base64url");
    const paging: Record<string, unknown> = { cursors: { before: cursor(start), after: cursor(start + slice.length) } };
    if (start + limit < fake.posts.length) {
      const next = new URL(`${fake.url}/v19.0/${pageId}/posts`);
      next.searchParams.set("access_token", token);
      next.searchParams.set("fields", fields.join(","));
      next.searchParams.set("limit", String(limit));
      next.searchParams.set("after", cursor(start + limit));
      paging.next = next.toString();
    }
    return json(res, 200, { data: slice, paging });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.posts = samplePosts(count, { pageId, imageBase: fake.url });

  const release = () => {
    for (const res of held) {
      res.writeHead(500, { "Content-Type": "application/json" });
      res.end("{}");
    }
    held.clear();
  };
  return Object.assign(fake, {
    setMode: (endpoint: Endpoint, mode: Mode) => void (modes[endpoint] = mode),
    hanging: () => held.size,
    untilHanging: (n = 1) =>
      new Promise<void>((resolve) => {
        waiters.push({ n, resolve });
        wake();
      }),
    release,
    count: (endpoint: Endpoint) => fake.requests.filter((r) => r.endpoint === endpoint).length,
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
