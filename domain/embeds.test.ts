import { describe, expect, it } from "vitest";
import { embedOf, markEmbeds, parseEmbedServices, renderEmbeds, type EmbedLabels } from "./embeds.ts";

const labels = (service: string): EmbedLabels => ({
  title: `Content from ${service}`,
  note: `Loading it tells ${service} & co. about <you>`,
  load: `Load ${service}`,
  open: `View on ${service}`,
  frameTitle: `${service} "content"`,
});

describe("embedOf", () => {
  it.each([
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10", "youtube", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ", "video"],
    ["https://youtu.be/dQw4w9WgXcQ", "youtube", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ", "video"],
    ["https://m.youtube.com/shorts/dQw4w9WgXcQ", "youtube", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ", "portrait"],
    ["https://x.com/saharamedias/status/1790000000000000000", "x", "https://platform.twitter.com/embed/Tweet.html?id=1790000000000000000", "post"],
    ["https://twitter.com/a/status/12345", "x", "https://platform.twitter.com/embed/Tweet.html?id=12345", "post"],
    ["https://www.instagram.com/p/C1a2b3c4d5/", "instagram", "https://www.instagram.com/p/C1a2b3c4d5/embed", "portrait"],
    ["https://www.tiktok.com/@sahara/video/7300000000000000000", "tiktok", "https://www.tiktok.com/embed/v2/7300000000000000000", "portrait"],
    ["https://vimeo.com/76979871", "vimeo", "https://player.vimeo.com/video/76979871", "video"],
    ["https://www.dailymotion.com/video/x8abcde", "dailymotion", "https://www.dailymotion.com/embed/video/x8abcde", "video"],
    ["https://t.me/saharamedia/1234", "telegram", "https://t.me/saharamedia/1234?embed=1", "post"],
  ])("%s is a %s embed", (url, service, frame, shape) => {
    expect(embedOf(url)).toEqual({ service, url: new URL(url).toString(), frame, shape });
  });

  it("frames a Facebook post or video through Facebook's plugin, the post's address encoded", () => {
    const post = embedOf("https://www.facebook.com/saharamedias/posts/pfbid0abc");
    expect(post?.frame).toBe("https://www.facebook.com/plugins/post.php?href=https%3A%2F%2Fwww.facebook.com%2Fsaharamedias%2Fposts%2Fpfbid0abc");
    expect(embedOf("https://www.facebook.com/saharamedias/videos/123456")).toMatchObject({ service: "facebook", shape: "video" });
    expect(embedOf("https://fb.watch/abcDEF/")?.frame).toMatch(/^https:\/\/www\.facebook\.com\/plugins\/video\.php\?href=/);
  });

  it.each([
    "https://www.youtube.com/",
    "https://www.youtube.com/watch?v=short",
    "https://www.facebook.com/saharamedias",
    "https://x.com/saharamedias",
    "https://evil.example/youtube.com/watch?v=dQw4w9WgXcQ",
    "https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ",
    "javascript:alert(1)",
    "https://user:pw@www.youtube.com/watch?v=dQw4w9WgXcQ",
    "not a url",
  ])("%s is not an embed", (url) => {
    expect(embedOf(url)).toBeNull();
  });
});

describe("parseEmbedServices", () => {
  it("reads a list, whatever its case and spaces, in the services' order", () => {
    expect(parseEmbedServices(" Facebook, youtube ,youtube")).toEqual({ services: ["youtube", "facebook"] });
    expect(parseEmbedServices("")).toEqual({ services: [] });
  });
  it("names the first unknown service", () => {
    expect(parseEmbedServices("youtube,myspace")).toEqual({ unknown: "myspace" });
  });
});

describe("markEmbeds and renderEmbeds", () => {
  const yt = "https://www.youtube.com/watch?v=dQw4w9WgXcQ&amp;t=5";

  it("marks a paragraph holding only a link whose words are its address, and a bare address", () => {
    const html = `<p>قبل</p><p dir="ltr"><a href="${yt}" target="_blank" rel="noopener noreferrer">${yt}</a></p><p>https://vimeo.com/76979871</p>`;
    const marked = markEmbeds(html);
    expect(marked).toContain(
      '<p>قبل</p><figure data-embed="youtube" data-embed-shape="video" data-embed-src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"',
    );
    expect(marked).toContain('data-embed-url="https://www.youtube.com/watch?v=dQw4w9WgXcQ&amp;t=5"></figure>');
    expect(marked).toContain('<figure data-embed="vimeo"');
    expect(marked).not.toContain("data-embed-allowed");
  });

  it("leaves a link with words of its own, a link inside a sentence and an unknown site as they are", () => {
    const html = [
      `<p><a href="${yt}">شاهد المقابلة</a></p>`,
      `<p>انظر <a href="${yt}">${yt}</a> هنا</p>`,
      `<p><a href="https://example.com/a">https://example.com/a</a></p>`,
    ].join("");
    expect(markEmbeds(html)).toBe(html);
  });

  it("asks first: a placeholder naming the service, a hidden button, a plain link, and no frame", () => {
    const page = renderEmbeds(markEmbeds(`<p><a href="${yt}">${yt}</a></p>`), labels);
    expect(page).not.toContain("<iframe");
    expect(page).toContain('data-state="asking"');
    expect(page).toContain("Content from YouTube");
    expect(page).toContain("Loading it tells YouTube &amp; co. about &lt;you&gt;");
    expect(page).toMatch(/<button type="button" hidden [^>]*data-embed-load[^>]*>Load YouTube<\/button>/);
    expect(page).toContain('<a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ&amp;t=5" target="_blank" rel="noopener noreferrer nofollow"');
    expect(page).toContain('data-embed-title="YouTube &quot;content&quot;"');
    // Nothing of the service's in the page but addresses in attributes the loader reads.
    expect(page).not.toMatch(/<(?:img|script|link)\b/);
  });

  it("frames a service allowed by default at once", () => {
    const page = renderEmbeds(markEmbeds(`<p><a href="${yt}">${yt}</a></p><p>https://vimeo.com/76979871</p>`, ["youtube"]), labels);
    expect(page).toMatch(/<iframe src="https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ" title="YouTube &quot;content&quot;"/);
    expect(page.match(/<iframe/g)).toHaveLength(1);
    expect(page).toContain('data-embed="vimeo"');
    expect(page).toContain("Load Vimeo");
  });

  it("drops a marked figure whose service it does not know (a stored body can never name one)", () => {
    const forged = '<figure data-embed="evil" data-embed-shape="video" data-embed-src="https://evil.example" data-embed-url="https://evil.example"></figure>';
    expect(renderEmbeds(forged, labels)).toBe("");
  });
});

describe("the placeholder's language", () => {
  it("speaks the page's language inside a body written in another", () => {
    const page = renderEmbeds(markEmbeds("<p>https://youtu.be/dQw4w9WgXcQ</p>"), (s) => ({ ...labels(s), lang: "fr", dir: "ltr" }));
    expect(page).toMatch(/^<figure class="my-6" lang="fr" dir="ltr" data-embed="youtube"/);
  });
});

describe("the placeholders' script", () => {
  it("is named on a placeholder that asks, never on a player framed at once", () => {
    const html = markEmbeds("<p>https://youtu.be/dQw4w9WgXcQ</p><p>https://vimeo.com/76979871</p>", ["vimeo"]);
    const page = renderEmbeds(html, (s) => ({ ...labels(s), script: "/assets/embeds-x.js" }));
    expect(page.match(/data-embed-script="\/assets\/embeds-x\.js"/g)).toHaveLength(1);
    expect(page).toMatch(/data-embed="youtube"[^>]*data-embed-script=/);
  });
});
