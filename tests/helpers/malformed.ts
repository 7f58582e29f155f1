/**
 * The malformed-request corpus: what a scanner, a broken client or an attacker sends to every route of the site,
 * built from the route table itself (app/routes.ts, so a new route is probed without being listed here) and
 * from what a running server shows (its sitemap for real slugs, the JSON API for real items, the forms of its
 * pages for every field they post). Each probe is a raw HTTP/1.x request; the answer to each must be a status
 * below 500. tests/e2e/security/malformed.e2e.test.ts runs every kind of probe on every route with a few of
 * the characters of each kind in `npm test`, and all of them (over 8,000 requests) with `npm run test:malformed`.
 */
import { Parser } from "htmlparser2";
import routes from "#app/routes.ts";
import { CONTENT_TYPE_DEFINITIONS } from "#domain/content-types/index.ts";
import { rawRequest, type RawAnswer } from "./raw-http.ts";

export type Probe = { group: string; name: string; payload: Buffer };
export type ProbeResult = { probe: Probe; answer: RawAnswer };

type RouteNode = { path?: string; index?: boolean; children?: RouteNode[] };

/** Every URL pattern of the route table, in the order it is declared. */
export function routePatterns(): string[] {
  const out: string[] = [];
  const walk = (nodes: readonly RouteNode[], prefix: string) => {
    for (const node of nodes) {
      const here = node.path ? `${prefix}/${node.path}`.replace(/\/+/g, "/") : prefix || "/";
      if (node.path !== undefined || node.index) out.push(here || "/");
      if (node.children) walk(node.children, node.path ? here : prefix);
    }
  };
  walk(routes as unknown as RouteNode[], "");
  return [...new Set(out)];
}

/** Values a running server gives the route parameters: real slugs, ids and guids, and one of each kind that is not. */
export type Samples = {
  /** A published item's public path per URL segment (`news` → `/news/…`), from the sitemap. */
  details: Map<string, string>;
  /** An item id per back-office segment. */
  ids: Map<string, number>;
  contactId: number | null;
  videoGuid: string | null;
};

/** Replaces the parameters of a pattern with samples; null when the server has nothing to put there. */
export function fill(pattern: string, samples: Samples): string[] {
  if (pattern.endsWith("/*")) return [pattern.replace(/\*$/, "x/y"), pattern.replace(/\*$/, "")];
  if (pattern === "/*") return ["/no/such/page"];
  if (pattern.includes(":slug")) {
    const segment = pattern.split("/")[1];
    const real = samples.details.get(segment);
    return [...(real ? [real] : []), pattern.replace(":slug", "no-such-item")];
  }
  const segments = Object.values(CONTENT_TYPE_DEFINITIONS).map((d) => d.segment);
  const withType = pattern.includes(":type") ? segments.map((s) => pattern.replace(":type", s)) : [pattern];
  const out: string[] = [];
  for (const p of withType) {
    const segment = p.split("/")[p.startsWith("/api/admin/") ? 3 : 2];
    const id = samples.ids.get(segment);
    let path = p;
    if (path.includes("/contacts/:id")) path = path.replace(":id", String(samples.contactId ?? 999999));
    else if (path.includes(":id")) path = path.replace(":id", String(id ?? 999999));
    path = path
      .replace(":guid", samples.videoGuid ?? "00000000-0000-4000-8000-000000000000")
      .replace(":file", "1.xml")
      .replace(":key", "x");
    out.push(path);
  }
  return out;
}

/** Real parameters from the running server: slugs from the sitemap, ids and guids from the newsroom's JSON API. */
export async function discoverSamples(base: string, cookie: string): Promise<Samples> {
  const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
  const details = new Map<string, string>();
  for (const m of sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const path = new URL(m[1]).pathname;
    const parts = path.split("/").filter(Boolean);
    if (parts.length === 2 && !details.has(parts[0])) details.set(parts[0], path);
  }
  const ids = new Map<string, number>();
  for (const { segment } of Object.values(CONTENT_TYPE_DEFINITIONS)) {
    const res = await fetch(`${base}/api/admin/${segment}?per_page=1`, { headers: { cookie } });
    const first = ((await res.json()) as { items?: { id: number }[] }).items?.[0];
    if (first) ids.set(segment, first.id);
  }
  const contacts = (await (await fetch(`${base}/api/admin/contacts`, { headers: { cookie } })).json()) as { contacts?: { id: number }[] };
  const videos = (await (await fetch(`${base}/api/admin/videos`, { headers: { cookie } })).json()) as { videos?: { guid: string }[] };
  return { details, ids, contactId: contacts.contacts?.[0]?.id ?? null, videoGuid: videos.videos?.[0]?.guid ?? null };
}

/** A raw request: any method, target, version and headers, and a body of known length. */
export function rawHttp(
  method: string,
  target: string,
  { host, version = "HTTP/1.1", headers = {}, body }: { host?: string | null; version?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Buffer {
  const lines = [`${method} ${target} ${version}`];
  if (host !== null && host !== undefined) lines.push(`Host: ${host}`);
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  const bytes = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8");
  if (bytes) lines.push(`Content-Length: ${bytes.length}`);
  lines.push("Connection: close");
  // UTF-8, as a client would send a non-ASCII header (U+202E in a Host: three bytes, not a stray ".").
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "utf8"), bytes ?? Buffer.alloc(0)]);
}

/** Characters that must never reach a 500: NUL, the other C0 controls, DEL, a C1 control, the bidi controls. */
export const CONTROL_SAMPLES: Record<string, string> = {
  NUL: "\u0000",
  BEL: "\u0007",
  ESC: "\u001b",
  "C0 run": "\u0001\u0002\u0003\u0008\u000b\u000c\u000e\u001f",
  DEL: "\u007f",
  C1: "\u0085\u009b",
};
const BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c"];
const pct = (s: string) => encodeURIComponent(s);

/** Host header forms that name no host we can be (each must get a 4xx), and forwarded headers that lie. */
const BAD_HOSTS: [string, Record<string, string>, string | null][] = [
  ["Host with a space", {}, "exa mple"],
  ["Host with bad percent-encoding", {}, "a%%"],
  ["empty Host", {}, ""],
  ["Host with a port that does not exist", {}, "127.0.0.1:99999"],
  ["Host of an unclosed IPv6 address", {}, "[::1"],
  ["Host with a user", {}, "user@host"],
  ["Host with a path", {}, "host/path"],
  ["Host with a backslash", {}, "host\\x"],
  ["Host with a U+202E", {}, "ho\u202est"],
  ["X-Forwarded-Host with a space", { "X-Forwarded-Host": "exa mple" }, "HOST"],
  ["X-Forwarded-Host with a bad port", { "X-Forwarded-Host": "a:99999" }, "HOST"],
  ["X-Forwarded-Proto that is no protocol", { "X-Forwarded-Proto": "ja va" }, "HOST"],
];

/** Request lines of other versions, with and without Host. */
const VERSIONS: [string, string, boolean][] = [
  ["HTTP/1.0 without Host", "HTTP/1.0", false],
  ["HTTP/1.0 with Host", "HTTP/1.0", true],
  ["HTTP/0.9 without Host", "HTTP/0.9", false],
  ["HTTP/1.2", "HTTP/1.2", true],
  ["HTTP/2.0 on HTTP/1 framing", "HTTP/2.0", true],
];

export type CorpusContext = { host: string; origin: string; cookie: string; samples: Samples; full: boolean };

/** In the sampled corpus, a few of each kind: the ones that failed before (NUL, U+202E) and one of each other shape. */
const SAMPLED_CONTROLS = new Set(["NUL", "C0 run"]);
const SAMPLED_BIDI = new Set(["\u202e"]);
const controlsOf = (ctx: CorpusContext) => Object.entries(CONTROL_SAMPLES).filter(([name]) => ctx.full || SAMPLED_CONTROLS.has(name));

/** Probes of one path: Host forms, request-line versions, bidi and control characters in the path and query, methods. */
/** In the sampled corpus, path number `index` takes every `step`-th of a list, from its own offset: each entry still meets many routes. */
const rotate = <T>(list: readonly T[], index: number, step: number, full: boolean) => (full ? list : list.filter((_, i) => i % step === index % step));

function* pathProbes(path: string, index: number, ctx: CorpusContext): Generator<Probe> {
  const { host, origin, cookie } = ctx;
  const group = path;
  const session = { Cookie: cookie };
  for (const [name, headers, value] of rotate(BAD_HOSTS, index, 3, ctx.full)) {
    yield { group, name, payload: rawHttp("GET", path, { host: value === "HOST" ? host : value, headers }) };
    if (ctx.full)
      yield {
        group,
        name: `${name}, signed in`,
        payload: rawHttp("GET", path, { host: value === "HOST" ? host : value, headers: { ...headers, ...session } }),
      };
  }
  for (const [name, version, withHost] of rotate(VERSIONS, index, 2, ctx.full))
    yield { group, name, payload: rawHttp("GET", path, { host: withHost ? host : null, version, headers: session }) };
  yield { group, name: "// and U+202E before the path", payload: rawHttp("GET", `//${pct("\u202e")}${path}`, { host }) };
  yield { group, name: "/\\ before the path", payload: rawHttp("GET", `/\\${path.slice(1)}`, { host, headers: session }) };
  for (const mark of BIDI.filter((m) => ctx.full || SAMPLED_BIDI.has(m))) {
    yield {
      group,
      name: `U+${mark.codePointAt(0)!.toString(16)} after the path`,
      payload: rawHttp("GET", `${path}${path.endsWith("/") ? "" : "/"}${pct(mark)}`, { host, headers: session }),
    };
  }
  // Pages render for these: in the sampled corpus, NUL alone (fields below take more, as they reach the database).
  for (const [name, ch] of controlsOf(ctx).filter(([n]) => ctx.full || n === "NUL")) {
    yield { group, name: `${name} in the path`, payload: rawHttp("GET", `${path}${pct(ch)}`, { host, headers: session }) };
    yield {
      group,
      name: `${name} in the query`,
      payload: rawHttp("GET", `${path}?q=${pct(`a${ch}b`)}&page=${pct(ch)}&category=${pct(ch)}&status=${pct(ch)}&lang=${pct(ch)}&type=${pct(ch)}`, {
        host,
        headers: session,
      }),
    };
  }
  yield {
    group,
    name: "a query of junk",
    payload: rawHttp("GET", `${path}?page=-1&page=99999999999999999999&per_page=0&q=${"ب".repeat(300)}&redirectTo=//evil.example&sort[]=x`, {
      host,
      headers: session,
    }),
  };
  yield { group, name: "bad percent-encoding in the query", payload: rawHttp("GET", `${path}?q=%ZZ&page=%`, { host, headers: session }) };
  yield {
    group,
    name: ".data of the path",
    payload: rawHttp("GET", `${path === "/" ? "/_root" : path.replace(/\/$/, "")}.data?_routes=${pct("\u0000")}`, { host, headers: session }),
  };
  for (const method of ctx.full ? ["PUT", "PATCH", "DELETE", "OPTIONS"] : ["PATCH", "DELETE"]) {
    yield {
      group,
      name: `${method}, signed in`,
      payload: rawHttp(method, path, { host, headers: { ...session, Origin: origin, "Content-Type": "application/json" }, body: `{"x":"\u0000"}` }),
    };
  }
  yield {
    group,
    name: "POST of a body that is not what the route reads",
    payload: rawHttp("POST", path, { host, headers: { ...session, Origin: origin, "Content-Type": "application/json" }, body: "{\u0000" }),
  };
  yield {
    group,
    name: "POST from another site",
    payload: rawHttp("POST", path, {
      host,
      headers: { ...session, Referer: "https://evil.example/x", "Content-Type": "application/x-www-form-urlencoded" },
      body: "a=b",
    }),
  };
}

/** Every string of a JSON object with a control character put into one field at a time. */
function* jsonFieldProbes(group: string, method: string, path: string, valid: Record<string, unknown>, ctx: CorpusContext): Generator<Probe> {
  const headers = { Cookie: ctx.cookie, Origin: ctx.origin, "Content-Type": "application/json" };
  const strings = Object.keys(valid).filter((k) => typeof valid[k] === "string" || valid[k] === null);
  let n = 0;
  // Each probe its own address: parallel sign-ups of one address would race each other (a conflict, not a fault).
  const own = (body: Record<string, unknown>) =>
    typeof body.email === "string" && path.includes("sign-up") ? { ...body, email: `${n++}.${body.email}` } : body;
  for (const field of strings) {
    for (const [name, ch] of controlsOf(ctx)) {
      const body = own({ ...valid, [field]: `${typeof valid[field] === "string" ? valid[field] : ""}${ch}${name === "NUL" ? " \u0000 " : ""}` });
      yield { group, name: `${method} ${field} with ${name}`, payload: rawHttp(method, path, { host: ctx.host, headers, body: JSON.stringify(body) }) };
    }
  }
  yield {
    group,
    name: `${method} with a NUL in a key`,
    payload: rawHttp(method, path, { host: ctx.host, headers, body: JSON.stringify(own({ ...valid, "ti\u0000tle": "x" })) }),
  };
}

/** The JSON writes of the API, each field of each with control characters: content types, videos, contacts, better-auth. */
export async function* jsonProbes(ctx: CorpusContext, base: string): AsyncGenerator<Probe> {
  const { samples } = ctx;
  const READ_ONLY = new Set(["id", "url", "updated_at", "created_at", "page_slug", "view_count", "views", "author", "author_id", "published_at"]);
  for (const { segment } of Object.values(CONTENT_TYPE_DEFINITIONS)) {
    const id = samples.ids.get(segment);
    if (!id) continue;
    const item = (await (await fetch(`${base}/api/admin/${segment}/${id}`, { headers: { cookie: ctx.cookie } })).json()) as Record<string, unknown>;
    const valid = Object.fromEntries(Object.entries(item).filter(([k, v]) => !READ_ONLY.has(k) && (typeof v !== "object" || v === null)));
    valid.status = "draft";
    yield* jsonFieldProbes(`/api/admin/${segment}`, "POST", `/api/admin/${segment}`, valid, ctx);
    yield* jsonFieldProbes(
      `/api/admin/${segment}/${id}`,
      "PATCH",
      `/api/admin/${segment}/${id}`,
      { title: item.title as string, excerpt: (item.excerpt as string) ?? null },
      ctx,
    );
  }
  yield* jsonFieldProbes("/api/admin/videos", "POST", "/api/admin/videos", { title: "فيديو تجريبي", description: "وصف" }, ctx);
  if (samples.contactId) yield* jsonFieldProbes("/api/admin/contacts/:id", "PATCH", `/api/admin/contacts/${samples.contactId}`, { status: "read" }, ctx);
  const auth = (path: string, fields: Record<string, unknown>) => jsonFieldProbes(path, "POST", path, fields, { ...ctx, cookie: "" });
  yield* auth("/api/auth/sign-up/email", { email: "probe@malformed.test", password: "Passw0rdProbe", name: "مسبار" });
  yield* auth("/api/auth/sign-in/email", { email: "probe@malformed.test", password: "Passw0rdProbe" });
  yield* auth("/api/auth/request-password-reset", { email: "probe@malformed.test", redirectTo: "/auth/reset" });
  yield* jsonFieldProbes("/api/auth/update-user", "POST", "/api/auth/update-user", { name: "محرر" }, ctx);
}

type FoundForm = { page: string; action: string; enctype: string; fields: [string, string][] };

/** The post forms of a page's HTML, with every named field and its value (hidden intents included). */
export function formsOf(page: string, html: string): FoundForm[] {
  const forms: FoundForm[] = [];
  let current: FoundForm | null = null;
  let textarea: { name: string; text: string } | null = null;
  const parser = new Parser({
    onopentag(tag, attrs) {
      if (tag === "form") {
        current = (attrs.method ?? "get").toLowerCase() === "post" ? { page, action: attrs.action || page, enctype: attrs.enctype ?? "", fields: [] } : null;
        return;
      }
      if (!current || !attrs.name) return;
      if (tag === "input" && !["file", "submit", "button", "image", "reset"].includes(attrs.type ?? "")) {
        if ((attrs.type === "checkbox" || attrs.type === "radio") && attrs.checked === undefined && current.fields.some(([n]) => n === attrs.name)) return;
        current.fields.push([attrs.name, attrs.value ?? "نص"]);
      } else if (tag === "button" && attrs.value !== undefined) current.fields.push([attrs.name, attrs.value]);
      else if (tag === "select") current.fields.push([attrs.name, ""]);
      else if (tag === "textarea") textarea = { name: attrs.name, text: "" };
    },
    ontext(text) {
      if (textarea) textarea.text += text;
    },
    onclosetag(tag) {
      if (tag === "textarea" && textarea && current) {
        current.fields.push([textarea.name, textarea.text || "نص طويل بما يكفي للتحقق من الحقول"]);
        textarea = null;
      }
      if (tag === "form" && current) {
        forms.push(current);
        current = null;
      }
    },
  });
  parser.write(html);
  parser.end();
  return forms;
}

/** Whether submitting a form ends something the rest of the corpus needs (the session, an item): sent last. */
export const isDestructive = (form: FoundForm) =>
  /sign-out/.test(form.action) || form.fields.some(([n, v]) => /intent|_action/.test(n) && /delete|remove|revoke|disable|sign.?out|restore|unpublish/i.test(v));

/** Each post form of each page, each field in turn with each control character, as the page would post it. */
export function* formProbes(forms: FoundForm[], ctx: CorpusContext): Generator<Probe> {
  for (const form of forms) {
    const multipart = form.enctype.includes("multipart");
    const headers = {
      Cookie: ctx.cookie,
      Origin: ctx.origin,
      "Content-Type": multipart ? "multipart/form-data; boundary=probe" : "application/x-www-form-urlencoded",
    };
    const encode = (fields: [string, string][]) =>
      multipart
        ? fields.map(([n, v]) => `--probe\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`).join("") + "--probe--\r\n"
        : new URLSearchParams(fields).toString();
    const action = form.action.startsWith("/") ? form.action : `${form.page.replace(/\/$/, "")}/${form.action}`;
    for (let i = 0; i < form.fields.length; i++) {
      // Each of these posts a whole form (an editor's post creates an item): in the sampled corpus, NUL alone.
      for (const [name, ch] of controlsOf(ctx).filter(([n]) => ctx.full || n === "NUL")) {
        const fields = form.fields.map(([n, v], j): [string, string] => [n, j === i ? `${v}${ch}` : v]);
        yield {
          group: `form ${action}`,
          name: `${form.fields[i][0]} with ${name} (from ${form.page})`,
          payload: rawHttp("POST", action, { host: ctx.host, headers, body: encode(fields) }),
        };
      }
    }
  }
}

/**
 * A mail client's one-click unsubscribe (RFC 8058), the one POST taken from any origin: the exact form from a
 * webmail's Origin, `Origin: null` and none, with tokens that are not one; and bodies that are not the form. Each
 * is refused (400 for a bad token, the origin check's 403 for another body) without an error line: React
 * Router's own origin check answered a foreign Origin 400 and logged an error with its stack.
 */
export function* oneClickUnsubscribeProbes(ctx: Pick<CorpusContext, "host">): Generator<Probe> {
  const group = "one-click unsubscribe";
  const urlencoded = { "Content-Type": "application/x-www-form-urlencoded" };
  const multipart = { "Content-Type": "multipart/form-data; boundary=probe" };
  const oneClick = "List-Unsubscribe=One-Click";
  const oneClickMultipart = `--probe\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--probe--\r\n`;
  const tokens = [
    "",
    "?token=abc",
    `?token=${"a".repeat(43)}`,
    `?token=${"a".repeat(43)}&send=3`,
    "?token=a&token=b",
    `?token=${pct("\u0000")}&send=${pct("-1")}`,
  ];
  for (const [origin, from] of [
    ["https://mail.example.com", "a webmail's Origin"],
    ["null", "Origin: null"],
    [null, "no Origin"],
  ] as const) {
    const headers: Record<string, string> = origin ? { Origin: origin } : {};
    for (const query of tokens) {
      yield {
        group,
        name: `one-click POST, ${from}, token ${query || "missing"}`,
        payload: rawHttp("POST", `/newsletter/unsubscribe${query}`, { host: ctx.host, headers: { ...headers, ...urlencoded }, body: oneClick }),
      };
    }
    yield {
      group,
      name: `one-click POST as multipart, ${from}, a token that is not one`,
      payload: rawHttp("POST", `/newsletter/unsubscribe?token=${"b".repeat(43)}`, {
        host: ctx.host,
        headers: { ...headers, ...multipart },
        body: oneClickMultipart,
      }),
    };
    for (const body of ["List-Unsubscribe=Yes", `${oneClick}&x=1`, "", "\u0000", `--probe\r\nbroken`]) {
      yield {
        group,
        name: `another body (${JSON.stringify(body).slice(0, 30)}), ${from}`,
        payload: rawHttp("POST", `/newsletter/unsubscribe?token=${"a".repeat(43)}`, {
          host: ctx.host,
          headers: { ...headers, ...(body.startsWith("--") ? multipart : urlencoded) },
          body,
        }),
      };
    }
  }
}

/**
 * Ids out of their column's range (issue 39: a bulk category action with category_id 2147483648 answered 500,
 * PostgreSQL's "integer out of range"): in every route param id, and in the JSON and form fields that name a row.
 */
export const OUT_OF_RANGE_IDS = ["0", "-1", "2147483648", "99999999999999999999", "1e309", "1.5", "0x10"];

export function* idRangeProbes(ctx: Pick<CorpusContext, "host" | "origin" | "cookie" | "full" | "samples">): Generator<Probe> {
  const group = "ids out of range";
  const session = { Cookie: ctx.cookie, Origin: ctx.origin };
  const json = { ...session, "Content-Type": "application/json" };
  const form = { ...session, "Content-Type": "application/x-www-form-urlencoded" };
  const values = ctx.full ? OUT_OF_RANGE_IDS : ["2147483648", "1e309"];
  const segments = Object.values(CONTENT_TYPE_DEFINITIONS).map((d) => d.segment);
  const realId = ctx.samples.ids.get("news") ?? 1;
  for (const pattern of routePatterns().filter((p) => p.includes(":id"))) {
    for (const segment of pattern.includes(":type") ? (ctx.full ? segments : ["news"]) : [null]) {
      for (const value of values) {
        const path = pattern.replace(":type", segment ?? "").replace(":id", value);
        yield { group, name: `GET ${path}`, payload: rawHttp("GET", path, { host: ctx.host, headers: session }) };
        if (ctx.full) yield { group, name: `DELETE ${path}`, payload: rawHttp("DELETE", path, { host: ctx.host, headers: json }) };
      }
    }
  }
  for (const value of values) {
    const token = /^[\d.e-]+$/.test(value) && !value.startsWith("0x") ? value : JSON.stringify(value);
    for (const [path, body] of [
      ["/api/admin/news/bulk", `{"action":"category","ids":[${realId}],"category_id":${token}}`],
      ["/api/admin/news/bulk", `{"action":"publish","ids":[${token}]}`],
      ["/api/admin/tags/merge", `{"into":${token},"from":[${token}]}`],
    ])
      yield { group, name: `POST ${path} ${body}`, payload: rawHttp("POST", path, { host: ctx.host, headers: json, body }) };
    yield {
      group,
      name: `PATCH /api/admin/news/:id category_id, authors ${value}`,
      payload: rawHttp("PATCH", `/api/admin/news/${realId}`, { host: ctx.host, headers: json, body: `{"category_id":${token},"authors":[${token}]}` }),
    };
    for (const [path, fields] of [
      ["/admin/library", { intent: "update", id: value }],
      ["/admin/news", { intent: "bulk", action: "category", ids: String(realId), category_id: value }],
      ["/admin/calendar", { intent: "move", type: "news", id: value, publish_date: "2031-01-01T10:00" }],
      ["/admin/tags", { intent: "rename", id: value, name: "وسم" }],
      ["/admin/contacts", { intent: "status", id: value, status: "read" }],
    ] as const)
      yield {
        group,
        name: `form ${path} ${JSON.stringify(fields)}`,
        payload: rawHttp("POST", path, { host: ctx.host, headers: form, body: new URLSearchParams(fields).toString() }),
      };
  }
}

/** Sends probes, `concurrency` at a time; every answer, in the order sent. */
export async function runProbes(port: number, probes: Iterable<Probe>, { concurrency = 8, waitMs = 30_000 } = {}): Promise<ProbeResult[]> {
  const queue = [...probes];
  const results = new Array<ProbeResult>(queue.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < queue.length) {
        const i = next++;
        results[i] = { probe: queue[i], answer: await rawRequest(port, queue[i].payload, { waitMs }) };
      }
    }),
  );
  return results;
}

/** The whole corpus against a running server: paths of every route, JSON writes, then every form (destructive last). */
export async function buildCorpus(base: string, ctx: Omit<CorpusContext, "samples">): Promise<{ probes: Probe[]; paths: string[]; forms: number }> {
  const samples = await discoverSamples(base, ctx.cookie);
  const full: CorpusContext = { ...ctx, samples };
  const paths = [...new Set(routePatterns().flatMap((p) => fill(p, samples)))];
  const probes: Probe[] = [];
  paths.forEach((path, index) => probes.push(...pathProbes(path, index, full)));
  probes.push(...oneClickUnsubscribeProbes(full));
  probes.push(...idRangeProbes(full));
  for await (const probe of jsonProbes(full, base)) probes.push(probe);
  const forms: FoundForm[] = [];
  for (const path of paths) {
    const res = await fetch(base + path, { headers: { cookie: ctx.cookie }, redirect: "manual" });
    if (res.status === 200 && (res.headers.get("content-type") ?? "").startsWith("text/html")) forms.push(...formsOf(path, await res.text()));
  }
  const seen = new Set<string>();
  const unique = forms.filter((f) => {
    const key = `${f.action} ${f.fields.map(([n]) => n).join(",")}`;
    return !seen.has(key) && seen.add(key);
  });
  probes.push(
    ...formProbes(
      unique.filter((f) => !isDestructive(f)),
      full,
    ),
    ...formProbes(unique.filter(isDestructive), full),
  );
  return { probes, paths, forms: unique.length };
}

/** Counts by status, for the closing line of a run. */
export function countByStatus(results: ProbeResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { answer } of results) {
    const key = answer.status === null ? `no answer (${answer.ended})` : String(answer.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
