/**
 * The article markup search engines read (issue 42, docs/architecture.md "What search engines read"), against the
 * built server: a news item, an article, a podcast episode and a program's episode, each in Arabic (`/…`) and
 * French (`/fr/…`). Their JSON-LD is checked against schema.org's vocabulary by the TypeScript compiler (every
 * object type-checked as the schema-dts type its `@type` names: a property that type does not have, or a value
 * of the wrong kind, fails), then for what Google asks of an article: a headline of at most 110 characters, the
 * picture in 16:9, 4:3 and 1:1 crops fetched and measured (at least 1,200 px wide, cut around the library's focal
 * point), ISO 8601 dates with dateModified moving on an edit, authors with their profile's address, the publisher's
 * logo measured, the page's own-language URL; a BreadcrumbList; `max-image-preview:large` unless noindex.
 */
import path from "node:path";
import sharp from "sharp";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localizedPath } from "#domain/addresses.ts";
import type { Language } from "#domain/language.ts";
import { contentEditor, startNewsroomServer, type NewsroomServer } from "#tests/e2e/newsroom/support.ts";
import { tusUpload } from "#tests/helpers/tus.ts";

const projectRoot = path.resolve(import.meta.dirname, "../../..");

type JsonLd = Record<string, unknown> & { "@type": string };
/** What the assertions read of a detail page's object (its shape is what they check). */
type ParsedArticle = {
  url: string;
  mainEntityOfPage: unknown;
  inLanguage: string;
  headline: string;
  name: string;
  datePublished: string;
  dateModified: string;
  author: { url: string }[];
  publisher: { name: string; logo: { url: string; width: string; height: string } };
  image: string[];
};

const decode = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** Every JSON-LD block of a page. */
const jsonLdOf = (html: string): JsonLd[] =>
  [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]) as JsonLd);

/** The meta tags named `name` (every one: a page must not say two things). */
const metaContents = (html: string, name: string) =>
  [...html.matchAll(/<meta\b[^>]*>/g)].flatMap(([tag]) => (tag.includes(`name="${name}"`) ? [decode(/content="([^"]*)"/.exec(tag)?.[1] ?? "")] : []));
const linkHref = (html: string, rel: string) => decode(new RegExp(`<link\\b[^>]*rel="${rel}"[^>]*href="([^"]*)"`).exec(html)?.[1] ?? "");

/**
 * The TypeScript compiler's errors for these JSON-LD objects, each declared as `WithContext<T>` of the schema-dts
 * type its `@type` names: object literals, so a property schema.org does not give that type is an error, as is a
 * `@type` schema-dts has no type for.
 */
function schemaErrors(objects: readonly JsonLd[]): string[] {
  const file = path.join(projectRoot, "tests/e2e/seo/__jsonld-check__.ts");
  const source = [
    `import type * as schema from "schema-dts";`,
    ...objects.map((o, i) => `export const o${i}: schema.WithContext<schema.${o["@type"]}> = ${JSON.stringify(o)};`),
  ].join("\n");
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const real = { getSourceFile: host.getSourceFile.bind(host), fileExists: host.fileExists.bind(host), readFile: host.readFile.bind(host) };
  host.fileExists = (name) => name === file || real.fileExists(name);
  host.readFile = (name) => (name === file ? source : real.readFile(name));
  host.getSourceFile = (name, version, ...rest) => (name === file ? ts.createSourceFile(name, source, version) : real.getSourceFile(name, version, ...rest));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

/** A portrait, red above and blue below: which part a crop kept shows in its colours. */
function portrait(width = 800, height = 1200): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw.set(y < height / 2 ? [200, 30, 30] : [30, 60, 200], (y * width + x) * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const RATIOS = { "16x9": 16 / 9, "4x3": 4 / 3, "1x1": 1 } as const;
const FOCAL = { x: 0.5, y: 0.85 };

describe("article markup for search engines", () => {
  let server: NewsroomServer<"editor">;
  let base: string;
  let picture = "";
  let authorSlug = "";
  /** One published item of each kind checked, with its public (Arabic) path. */
  const items: { segment: string; types: readonly string[]; id: number; url: string }[] = [];

  const api = async (method: string, pathname: string, body?: unknown) => {
    const res = await fetch(base + pathname, {
      method,
      headers: { cookie: server.personas.editor.cookie, origin: base, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const page = async (lang: Language, pathname: string) => {
    const res = await fetch(base + localizedPath(lang, pathname));
    expect(res.status, `${lang} ${pathname}`).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    server = await startNewsroomServer({ editor: contentEditor("markup@seo.test") });
    base = server.url;

    // A library picture (uploaded as the editor's image fields do) with its focal point low in the frame.
    const sent = await tusUpload(
      `${base}/api/admin/files/tus`,
      await portrait(),
      { folder: "news", filename: "qafila-markup.png", filetype: "image/png" },
      {
        cookie: server.personas.editor.cookie,
        origin: base,
      },
    );
    expect(sent.status).toBe(204);
    picture = sent.headers.get("upload-file-url") ?? "";
    expect(picture).toMatch(/^\/uploads\/news\/.+\.png$/);
    const found = await api("GET", `/api/admin/library?kind=image&q=${encodeURIComponent("qafila-markup")}`);
    const file = (found.json.items as { id: number; url: string }[]).find((f) => f.url === picture);
    expect(file).toBeDefined();
    expect((await api("PATCH", `/api/admin/library/${file!.id}`, { focal: FOCAL })).status).toBe(200);

    // An author profile, credited on every item checked.
    const author = await api("POST", "/api/admin/authors", { name: "مريم بنت أحمد", name_fr: "Mariem Mint Ahmed" });
    expect(author.status).toBe(201);
    authorSlug = typeof author.json.slug === "string" ? author.json.slug : "";
    expect(authorSlug).not.toBe("");

    // A published demo item of each type, given the picture, the author and a French title of its own.
    const longTitle = `${"أعلنت وزارة الثقافة والصناعة التقليدية اليوم عن إطلاق برنامج وطني واسع لترميم المخطوطات القديمة"} في مدن شنقيط ووادان وتيشيت وولاتة`;
    // The schema.org type each one's definition names (an article of the opinion category is an OpinionNewsArticle).
    for (const [segment, types] of [
      ["news", ["NewsArticle"]],
      ["articles", ["NewsArticle", "OpinionNewsArticle"]],
      ["podcasts", ["PodcastEpisode"]],
      ["programs", ["TVEpisode"]],
    ] as const) {
      const list = await api("GET", `/api/admin/${segment}?status=published&per_page=50`);
      const rows = list.json.items as { id: number; status: string; url: string }[];
      const row = rows.find((r) => r.status === "published" && !r.url.includes("#"));
      expect(row, `a published ${segment} item`).toBeDefined();
      const changed = await api("PATCH", `/api/admin/${segment}/${row!.id}`, {
        image_url: picture,
        authors: [author.json.id],
        title_fr: `Titre français de l'élément ${segment}`,
        ...(segment === "news" ? { title: longTitle } : {}),
      });
      expect(changed.status, JSON.stringify(changed.json)).toBe(200);
      items.push({ segment, types, id: row!.id, url: typeof changed.json.url === "string" ? changed.json.url : row!.url });
    }
  }, 180_000);

  afterAll(() => server?.stop());

  it("every detail page's JSON-LD is schema.org's vocabulary, with what Google asks of an article", async () => {
    const measured = new Map<string, { width: number; height: number; blue: boolean[] }>();
    const measure = async (url: string) => {
      const known = measured.get(url);
      if (known) return known;
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/jpeg");
      expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
      const { data, info } = await sharp(Buffer.from(await res.arrayBuffer()))
        .raw()
        .toBuffer({ resolveWithObject: true });
      const isBlue = (x: number, y: number) => data[(y * info.width + x) * info.channels + 2] > 150;
      const w = info.width;
      const h = info.height;
      const result = { width: w, height: h, blue: [isBlue(5, 5), isBlue(w - 5, 5), isBlue(w >> 1, h >> 1), isBlue(5, h - 5), isBlue(w - 5, h - 5)] };
      measured.set(url, result);
      return result;
    };

    const all: JsonLd[] = [];
    for (const item of items) {
      for (const lang of ["ar", "fr"] as const) {
        const html = await page(lang, item.url);
        const own = base + localizedPath(lang, item.url);
        const blocks = jsonLdOf(html);
        all.push(...blocks);
        const article = blocks.find((b) => item.types.includes(b["@type"]));
        expect(article, `${item.segment} ${lang}: its ${item.types.join(" or ")}`).toBeDefined();
        const a = article as unknown as ParsedArticle;
        const where = `${item.segment} ${lang}`;

        // The page's own language's address everywhere.
        expect(linkHref(html, "canonical"), where).toBe(own);
        expect(decode(/<meta property="og:url" content="([^"]*)"/.exec(html)?.[1] ?? ""), where).toBe(own);
        expect(a.url, where).toBe(own);
        expect(a.mainEntityOfPage, where).toEqual({ "@type": "WebPage", "@id": own });
        expect(a.inLanguage, where).toBe(lang);
        expect(metaContents(html, "robots"), where).toEqual(["max-image-preview:large"]);

        expect(typeof a.headline).toBe("string");
        expect(a.headline.length, where).toBeLessThanOrEqual(110);
        expect(a.headline.length, where).toBeGreaterThan(0);
        if (item.segment === "news" && lang === "ar") {
          expect(a.name.length).toBeGreaterThan(110);
          expect(a.headline.endsWith("…")).toBe(true);
          expect(a.name.startsWith(a.headline.slice(0, -1)), "cut at a word").toBe(true);
          expect(a.name[a.headline.length - 1], "cut at a word").toBe(" ");
        }

        expect(a.datePublished, where).toMatch(ISO_8601);
        expect(a.dateModified, where).toMatch(ISO_8601);
        expect(Date.parse(a.dateModified)).toBeGreaterThanOrEqual(Date.parse(a.datePublished));

        expect(a.author, where).toEqual([
          {
            "@type": "Person",
            name: lang === "fr" ? "Mariem Mint Ahmed" : "مريم بنت أحمد",
            url: base + localizedPath(lang, `/authors/${encodeURIComponent(authorSlug)}`),
          },
        ]);
        expect((await fetch(a.author[0].url)).status, "the author's page").toBe(200);

        expect(a.publisher).toMatchObject({ "@type": "Organization", logo: { "@type": "ImageObject" } });
        expect(a.publisher.name.length).toBeGreaterThan(0);
        const logo = await fetch(a.publisher.logo.url);
        expect(logo.headers.get("content-type")).toBe("image/png");
        const logoMeta = await sharp(Buffer.from(await logo.arrayBuffer())).metadata();
        expect([String(logoMeta.width), String(logoMeta.height)]).toEqual([a.publisher.logo.width, a.publisher.logo.height]);
        expect(logoMeta.width).toBeGreaterThanOrEqual(112);

        // Three crops of the library picture, each at its ratio, 1,200 px wide, around the focal point (the blue half).
        expect(a.image, where).toHaveLength(3);
        for (const [i, [ratio, value]] of Object.entries(RATIOS).entries()) {
          const url = new URL(a.image[i]);
          expect(url.pathname).toBe("/social/share");
          expect(url.searchParams.get("src")).toBe(picture);
          expect(url.searchParams.get("r")).toBe(ratio);
          const crop = await measure(a.image[i]);
          expect(crop.width, `${ratio} width`).toBeGreaterThanOrEqual(1200);
          expect(Math.abs(crop.width / crop.height - value), `${ratio} is ${crop.width}×${crop.height}`).toBeLessThan(0.01);
          // 16:9 and 4:3 fit in the lower half whole; the square takes some red above, its centre stays blue.
          if (ratio === "1x1") expect(crop.blue[2]).toBe(true);
          else expect(crop.blue, `${ratio} kept the focal point's half`).toEqual([true, true, true, true, true]);
        }

        // Home → listing → item, in the page's language, at its addresses.
        const crumbs = blocks.find((b) => b["@type"] === "BreadcrumbList") as
          { itemListElement: { position: number; name: string; item: string }[] } | undefined;
        expect(crumbs, `${where}: a BreadcrumbList`).toBeDefined();
        const steps = crumbs!.itemListElement;
        expect(steps.map((s) => s.position)).toEqual(steps.map((_, i) => i + 1));
        expect(steps[0]).toMatchObject({ name: lang === "fr" ? "Accueil" : "الرئيسية", item: base + localizedPath(lang, "/") });
        expect(steps.at(-1)).toMatchObject({ item: own });
        for (const step of steps) expect((await fetch(step.item)).status, step.item).toBe(200);
      }
    }
    expect(all.length).toBeGreaterThanOrEqual(items.length * 2 * 2);

    // Against the vocabulary: every object compiles as the schema-dts type its @type names.
    expect(schemaErrors(all)).toEqual([]);
    // The check can fail: a misspelt property, and a type schema.org does not have, are refused.
    const wrong = { ...all[0], headLine: "x" } as JsonLd;
    expect(schemaErrors([wrong]).join("\n")).toMatch(/headLine/);
    expect(schemaErrors([{ ...all[0], "@type": "NewsArtikel" }]).length).toBeGreaterThan(0);
  }, 180_000);

  it("dateModified follows every published edit", async () => {
    const news = items.find((i) => i.segment === "news")!;
    const before = jsonLdOf(await page("ar", news.url)).find((b) => b["@type"] === "NewsArticle")!.dateModified as string;
    const changed = await api("PATCH", `/api/admin/news/${news.id}`, { excerpt: `ملخص معدل ${Date.now()}` });
    expect(changed.status).toBe(200);
    await expect
      .poll(async () => jsonLdOf(await page("ar", news.url)).find((b) => b["@type"] === "NewsArticle")!.dateModified as string, { timeout: 10_000 })
      .not.toBe(before);
    const after = jsonLdOf(await page("ar", news.url)).find((b) => b["@type"] === "NewsArticle")!.dateModified as string;
    expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
    expect(new Date(after).toISOString()).toBe(new Date(String(changed.json.updated_at)).toISOString());
  });

  it("a noindex page says noindex only; a page without French text of its own is noindex in French", async () => {
    const article = items.find((i) => i.segment === "articles")!;
    expect((await api("PATCH", `/api/admin/articles/${article.id}`, { noindex: true })).status).toBe(200);
    await expect.poll(async () => metaContents(await page("ar", article.url), "robots"), { timeout: 10_000 }).toEqual(["noindex"]);
    const podcast = items.find((i) => i.segment === "podcasts")!;
    expect((await api("PATCH", `/api/admin/podcasts/${podcast.id}`, { title_fr: "" })).status).toBe(200);
    await expect.poll(async () => metaContents(await page("fr", podcast.url), "robots"), { timeout: 10_000 }).toEqual(["noindex"]);
    expect(metaContents(await page("ar", podcast.url), "robots")).toEqual(["max-image-preview:large"]);
  });

  it("the crop maker takes only the ratios it names, and keeps its cache headers", async () => {
    const ok = await fetch(`${base}/social/share?${new URLSearchParams({ src: picture, f: "0.5,0.85", r: "4x3" })}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("public, max-age=86400");
    for (const r of ["2x1", "16:9", "", "1200x1200"]) {
      const refused = await fetch(`${base}/social/share?${new URLSearchParams({ src: picture, r })}`);
      expect(refused.status, `r=${r}`).toBe(400);
      expect(refused.headers.get("cache-control")).toBe("no-store");
    }
    // Without a ratio, the link preview's 1200×630 as before.
    const preview = await fetch(`${base}/social/share?${new URLSearchParams({ src: picture, f: "0.5,0.85" })}`);
    const meta = await sharp(Buffer.from(await preview.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 630]);
  });
});
