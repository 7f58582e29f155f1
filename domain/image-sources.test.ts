/**
 * The stored-image naming convention of decision 0104, read from URLs alone: what srcset the public pages
 * build, and that anything else (demo SVGs, external pictures, older uploads) is shown as it is.
 */
import { describe, expect, it } from "vitest";
import { imageSources, parseSizedImage, sizedName, variantsOf } from "./image-sources.ts";

const ARABIC = encodeURIComponent("غلاف-الخبر");

describe("image sources from a stored URL", () => {
  it("builds the WebP and fallback srcsets, widest last, with the intrinsic size", () => {
    const url = "/uploads/news/1767000000000-a1b2c3-cover.1600x900.jpg";
    expect(imageSources(url)).toEqual({
      src: url,
      width: 1600,
      height: 900,
      srcSet: [
        "/uploads/news/1767000000000-a1b2c3-cover.1600x900.w320.jpg 320w",
        "/uploads/news/1767000000000-a1b2c3-cover.1600x900.w640.jpg 640w",
        "/uploads/news/1767000000000-a1b2c3-cover.1600x900.w960.jpg 960w",
        "/uploads/news/1767000000000-a1b2c3-cover.1600x900.w1280.jpg 1280w",
        `${url} 1600w`,
      ].join(", "),
      webpSrcSet: [320, 640, 960, 1280, 1600].map((w) => `/uploads/news/1767000000000-a1b2c3-cover.1600x900.w${w}.webp ${w}w`).join(", "),
    });
  });

  it("keeps percent-encoded Arabic names as they are, on any host", () => {
    const url = `https://cdn.example.net/news/1767000000000-a1b2c3-${ARABIC}.2000x1500.png`;
    const sources = imageSources(url);
    expect(sources.width).toBe(2000);
    expect(sources.srcSet?.split(", ")[0]).toBe(`https://cdn.example.net/news/1767000000000-a1b2c3-${ARABIC}.2000x1500.w320.png 320w`);
    expect(sources.srcSet?.split(", ").at(-1)).toBe(`${url} 2000w`);
    expect(sources.webpSrcSet?.split(", ")).toHaveLength(5 + 1);
    expect(decodeURIComponent(sources.webpSrcSet!.split(" ")[0])).toBe("https://cdn.example.net/news/1767000000000-a1b2c3-غلاف-الخبر.2000x1500.w320.webp");
    // A driver that did not encode the name: the same names, unencoded.
    expect(imageSources("/uploads/news/1-a-صورة.700x400.jpg").srcSet).toBe(
      "/uploads/news/1-a-صورة.700x400.w320.jpg 320w, /uploads/news/1-a-صورة.700x400.w640.jpg 640w, /uploads/news/1-a-صورة.700x400.jpg 700w",
    );
  });

  it("names no width above the original's, and the original's own width once", () => {
    expect(imageSources("/u/x.300x200.jpg")).toEqual({
      src: "/u/x.300x200.jpg",
      width: 300,
      height: 200,
      srcSet: "/u/x.300x200.jpg 300w",
      webpSrcSet: "/u/x.300x200.w300.webp 300w",
    });
    expect(imageSources("/u/x.640x360.jpg").srcSet).toBe("/u/x.640x360.w320.jpg 320w, /u/x.640x360.jpg 640w");
    expect(
      imageSources("/u/x.4000x3000.jpg")
        .srcSet?.split(", ")
        .map((c) => c.split(" ")[1]),
    ).toEqual(["320w", "640w", "960w", "1280w", "1920w", "4000w"]);
  });

  it("gives WebP and AVIF originals one srcset in their own format, and GIFs only their size", () => {
    expect(imageSources("/u/x.800x600.webp")).toEqual({
      src: "/u/x.800x600.webp",
      width: 800,
      height: 600,
      srcSet: "/u/x.800x600.w320.webp 320w, /u/x.800x600.w640.webp 640w, /u/x.800x600.webp 800w",
      webpSrcSet: undefined,
    });
    expect(imageSources("/u/x.800x600.avif").srcSet).toBe("/u/x.800x600.w320.avif 320w, /u/x.800x600.w640.avif 640w, /u/x.800x600.avif 800w");
    expect(imageSources("/u/spinner.40x30.gif")).toEqual({ src: "/u/spinner.40x30.gif", width: 40, height: 30 });
  });

  it("shows anything else as it is", () => {
    for (const url of [
      "/uploads/demo/images/news/1.svg",
      "/uploads/news/1767000000000-a1b2c3-cover.jpg",
      "https://scontent.example.com/photo.jpg?stp=dst-jpg",
      "https://example.com/a.1600x900.jpg?v=2",
      "https://example.com/a.1600x900.jpg#top",
      "/uploads/x y.1600x900.jpg",
      "/uploads/x,y.1600x900.jpg",
      "/uploads/news/.1600x900.jpg",
      "/uploads/news/x.0600x900.jpg",
      "/uploads/news/x.1600x900.JPG",
      "/uploads/news/x.1600x900.w640.webp",
      "/uploads/news/x.1600x900.svg",
      "",
    ])
      expect(imageSources(url), url).toEqual({ src: url });
  });
});

describe("the naming shared with the server", () => {
  it("puts the size before the extension and reads it back", () => {
    const name = sizedName("1767000000000-a1b2c3-غلاف", 1600, 900, "jpg");
    expect(name).toBe("1767000000000-a1b2c3-غلاف.1600x900.jpg");
    expect(parseSizedImage(`news/${name}`)).toEqual({ stem: "news/1767000000000-a1b2c3-غلاف.1600x900", width: 1600, height: 900, format: "jpg" });
  });

  it("lists the copies the server makes: own format below the width, WebP below and at it, none for GIF", () => {
    const names = (key: string) => variantsOf(parseSizedImage(key)!).map((v) => v.name);
    expect(names("n/a.1000x500.png")).toEqual([
      "n/a.1000x500.w320.png",
      "n/a.1000x500.w640.png",
      "n/a.1000x500.w960.png",
      "n/a.1000x500.w320.webp",
      "n/a.1000x500.w640.webp",
      "n/a.1000x500.w960.webp",
      "n/a.1000x500.w1000.webp",
    ]);
    expect(names("n/a.700x500.webp")).toEqual(["n/a.700x500.w320.webp", "n/a.700x500.w640.webp"]);
    expect(names("n/a.700x500.gif")).toEqual([]);
  });
});
