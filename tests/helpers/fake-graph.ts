/**
 * A local HTTP server speaking enough of the Graph API for the social feed: GET /{version}/me, GET
 * /{version}/{page}, GET /{version}/{page}/posts with fields, limit and cursor paging (its `paging.next` carries
 * the access token, as Facebook's does), and the post pictures. It answers by the version in the path, as Meta
 * does: one of `SERVED_VERSIONS` works, an older one is refused with Meta's error 2635, one it never heard of
 * with 2500 — so a client whose default version Meta no longer serves fails here too. Errors are in Meta's
 * format (`{ error: { message, type, code, error_subcode, fbtrace_id } }`). A test switches an endpoint to
 * answer an error status, one of Meta's refusals (`META`), garbage, or nothing at all (the request is held
 * open until `release()` or `close()`), and changes the versions served (`setVersions`).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { makePng } from "./png.ts";

export const PNG = makePng();

/**
 * The Graph API versions Meta served on 2026-11-25 (its changelog: v21.0 until 2027-01-21 … v26.0, introduced
 * 2026-07-29). Written out here, not taken from the configuration, so that a default Meta no longer serves
 * fails the tests instead of agreeing with itself; move it on when Meta retires a version.
 */
export const SERVED_VERSIONS = ["v21.0", "v22.0", "v23.0", "v24.0", "v25.0", "v26.0"] as const;

export type MetaErrorBody = { message: string; type: string; code: number; error_subcode?: number };

/** Meta's refusals as it words them (its error-handling guide, and what it answers a retired version). */
export const META = {
  expiredToken: {
    status: 400,
    error: {
      message: "Error validating access token: Session has expired on Wednesday, 20-May-26 23:00:00 PDT. The current time is Thursday, 21-May-26 01:00:00 PDT.",
      type: "OAuthException",
      code: 190,
      error_subcode: 463,
    },
  },
  missingPermission: {
    status: 403,
    error: {
      message: "(#10) This endpoint requires the 'pages_read_engagement' permission or the 'Page Public Content Access' feature.",
      type: "OAuthException",
      code: 10,
    },
  },
  rateLimited: { status: 400, error: { message: "(#4) Application request limit reached", type: "OAuthException", code: 4, error_subcode: 1504022 } },
} satisfies Record<string, { status: number; error: MetaErrorBody }>;

export type FakePost = Record<string, unknown> & { id: string };
export type Endpoint = "me" | "page" | "posts" | "image";
export type Mode =
  | { kind: "ok" }
  | { kind: "status"; status: number; echoToken?: boolean }
  | { kind: "meta"; status: number; error: MetaErrorBody }
  | { kind: "hang" }
  | { kind: "garbage" };

export type FakeGraph = {
  url: string;
  token: string;
  pageId: string;
  posts: FakePost[];
  /** Every request, the token replaced by a marker; `version` is the path's first segment when it names one. */
  requests: { endpoint: Endpoint | "other"; path: string; version: string | null; query: Record<string, string>; tokenOk: boolean }[];
  setMode: (endpoint: Endpoint, mode: Mode) => void;
  /** The versions answered from now on (`SERVED_VERSIONS` at start). */
  setVersions: (versions: readonly string[]) => void;
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

const VERSION = /^v(\d+)\.(\d+)$/;
const versionNumber = (v: string) => {
  const m = VERSION.exec(v);
  return m ? Number(m[1]) * 100 + Number(m[2]) : NaN;
};

export async function startFakeGraph({ token, pageId = "104857600123", count = 20 }: { token: string; pageId?: string; count?: number }): Promise<FakeGraph> {
  const modes: Record<Endpoint, Mode> = { me: { kind: "ok" }, page: { kind: "ok" }, posts: { kind: "ok" }, image: { kind: "ok" } };
  let served: readonly string[] = SERVED_VERSIONS;
  let traces = 0;
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
  const metaError = (res: http.ServerResponse, status: number, error: MetaErrorBody) =>
    json(res, status, { error: { ...error, fbtrace_id: `AbCd${(++traces).toString(36)}Ef` } });
  const oauthError = (res: http.ServerResponse, status: number, echo = false) =>
    metaError(res, status, {
      message: echo ? `Error validating access token: ${token} has expired` : "Invalid OAuth access token - Cannot parse access token",
      type: "OAuthException",
      code: 190,
    });
  /** Meta's answer to a version it does not serve: retired (older than the oldest served) or never heard of. */
  const versionError = (res: http.ServerResponse, version: string, rest: string) => {
    const oldest = Math.min(...served.map(versionNumber));
    if (versionNumber(version) < oldest) {
      const latest = [...served].sort((a, b) => versionNumber(b) - versionNumber(a))[0];
      return metaError(res, 400, {
        message: `(#2635) You are calling a deprecated version of the Graph API. Please update to the latest version: ${latest}.`,
        type: "OAuthException",
        code: 2635,
      });
    }
    return metaError(res, 400, { message: `Unknown path components: ${rest}`, type: "OAuthException", code: 2500 });
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", fake.url);
    const query = Object.fromEntries(url.searchParams);
    const tokenOk = url.searchParams.get("access_token") === token;
    if ("access_token" in query) query.access_token = "[token]";
    const all = url.pathname.split("/").filter(Boolean);
    const version = VERSION.test(all[0] ?? "") ? all[0] : null;
    // Without a version Meta answers in the app's default version: here, as if it were a served one.
    const segments = version ? all.slice(1) : all;
    const endpoint: Endpoint | "other" =
      !version && segments[0] === "img"
        ? "image"
        : segments[0] === "me" && segments.length === 1
          ? "me"
          : segments.length === 1
            ? "page"
            : segments.length === 2 && segments[1] === "posts"
              ? "posts"
              : "other";
    fake.requests.push({ endpoint, path: url.pathname, version, query, tokenOk });
    if (endpoint === "other") return metaError(res, 400, { message: `Unknown path components: /${segments.join("/")}`, type: "OAuthException", code: 2500 });

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
    if (mode.kind === "meta") return metaError(res, mode.status, mode.error);

    if (endpoint === "image") {
      if (segments[1] === "broken.png") return json(res, 404, { error: "gone" });
      res.writeHead(200, { "Content-Type": "image/png", "Content-Length": PNG.length });
      return res.end(PNG);
    }
    if (version && !served.includes(version)) return versionError(res, version, `/${segments.join("/")}`);
    if (!tokenOk) return oauthError(res, 400);
    if (endpoint === "me") return json(res, 200, { id: "900100", name: "Sahara Média" });
    if (segments[0] !== pageId) {
      return metaError(res, 404, {
        message: `Unsupported get request. Object with ID '${segments[0]}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        type: "GraphMethodException",
        code: 100,
        error_subcode: 33,
      });
    }
    if (endpoint === "page") return json(res, 200, { id: pageId, name: "Sahara Média" });

    const limit = Math.min(100, Number(url.searchParams.get("limit") ?? 25) || 25);
    const after = url.searchParams.get("after");
    const start = after ? Number(Buffer.from(after, "base64url").toString("utf8").replace("post:", "")) : 0;
    const fields = (url.searchParams.get("fields") ?? "id,message,created_time").split(",");
    const slice = fake.posts.slice(start, start + limit).map((p) => Object.fromEntries(Object.entries(p).filter(([k]) => fields.includes(k))));
    const cursor = (i: number) => Buffer.from(`post:${i}`).toString("base64url");
    const paging: Record<string, unknown> = { cursors: { before: cursor(start), after: cursor(start + slice.length) } };
    if (start + limit < fake.posts.length) {
      const next = new URL(`${fake.url}${version ? `/${version}` : ""}/${pageId}/posts`);
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
    setVersions: (versions: readonly string[]) => void (served = [...versions]),
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
