import { describe, expect, it } from "vitest";
import {
  cropRatioOf,
  cropSize,
  focalCrop,
  imagesWithoutAlt,
  imageUrlsIn,
  imageUrlsOfItem,
  objectPositionOf,
  shareImagePath,
  type ImageDetailsMap,
} from "./image-details.ts";

describe("image details", () => {
  it("crops a picture to a ratio around its focal point, inside the picture", () => {
    // A portrait to 1.91:1: the full width, a band placed on the focal point.
    expect(focalCrop(200, 400, 1200 / 630, { x: 0.5, y: 0.8 })).toEqual({ left: 0, top: 268, width: 200, height: 105 });
    expect(focalCrop(200, 400, 1200 / 630, { x: 0.5, y: 0.5 })).toEqual({ left: 0, top: 148, width: 200, height: 105 });
    // At the edge: the band stops at the picture's border.
    expect(focalCrop(200, 400, 1200 / 630, { x: 0.5, y: 1 })).toEqual({ left: 0, top: 295, width: 200, height: 105 });
    // A wide picture to a square: the full height, a column on the focal point.
    expect(focalCrop(1600, 900, 1, { x: 0.1, y: 0.5 })).toEqual({ left: 0, top: 0, width: 900, height: 900 });
    expect(focalCrop(1600, 900, 1, { x: 0.9, y: 0.5 })).toEqual({ left: 700, top: 0, width: 900, height: 900 });
  });

  it("gives object-position only to a picture placed off centre", () => {
    expect(objectPositionOf({ focal: { x: 0.2, y: 0.8 } })).toBe("20% 80%");
    expect(objectPositionOf({ focal: { x: 0.5, y: 0.5 } })).toBeUndefined();
    expect(objectPositionOf(undefined)).toBeUndefined();
  });

  it("finds the picture addresses of a loader's data under image-like keys, once each", () => {
    const data = {
      featured: [{ imageUrl: "/uploads/a.jpg", title: "/uploads/not-a-picture-key" }],
      grid: { items: [{ imageUrl: "/uploads/a.jpg" }, { thumbnailUrl: "https://cdn.example/b.png", imageUrl: null }] },
      social: [{ image: "javascript:alert(1)" }, { image: "//evil.example/x.jpg" }],
      when: new Date(),
    };
    expect(imageUrlsIn(data).sort()).toEqual(["/uploads/a.jpg", "https://cdn.example/b.png"]);
  });

  it("names a share image only for a raster library picture, with its focal point", () => {
    expect(shareImagePath("/uploads/news/a.1600x900.jpg", { focal: { x: 0.2, y: 0.8 } })).toBe(
      "/social/share?src=%2Fuploads%2Fnews%2Fa.1600x900.jpg&f=0.2%2C0.8",
    );
    expect(shareImagePath("/uploads/demo/a.svg", { focal: { x: 0.2, y: 0.8 } })).toBeNull();
    expect(shareImagePath("/uploads/news/a.jpg", undefined)).toBeNull();
  });

  it("names the article markup's crops by ratio, and only the ratios it makes (issue 42)", () => {
    expect(shareImagePath("/uploads/news/a.jpg", { focal: { x: 0.5, y: 0.5 } }, "4x3")).toBe("/social/share?src=%2Fuploads%2Fnews%2Fa.jpg&f=0.5%2C0.5&r=4x3");
    expect(cropRatioOf(null)).toBeUndefined();
    for (const r of ["16x9", "4x3", "1x1"] as const) {
      expect(cropRatioOf(r)).toBe(r);
      const { width, height } = cropSize(r);
      expect(width).toBeGreaterThanOrEqual(1200);
      expect(width / height).toBeCloseTo(Number(r.split("x")[0]) / Number(r.split("x")[1]), 2);
    }
    for (const r of ["", "2x1", "16:9", "toString", "__proto__"]) expect(cropRatioOf(r), r).toBeNull();
    expect(cropSize(undefined)).toEqual({ width: 1200, height: 630 });
  });
});

describe("pictures without alt text (issue 39)", () => {
  const details = (ar: string, fr: string) => ({
    kind: "image" as const,
    alt: { ar, fr },
    caption: { ar: "", fr: "" },
    credit: { ar: "", fr: "" },
    focal: { x: 0.5, y: 0.5 },
    width: null,
    height: null,
  });
  const library: ImageDetailsMap = {
    "/u/described.jpg": details("جمل", ""),
    "/u/french.jpg": details("", "Un dromadaire"),
    "/u/empty.jpg": details("  ", ""),
  };

  it("finds the lead images and body pictures a screen reader could not describe, once each", () => {
    const item = {
      images: ["/u/empty.jpg", "/u/described.jpg", ""],
      bodies: [
        `<p>x</p><img src="/u/french.jpg" alt=""><img src="/u/unknown.png"><img alt="قافلة" src="/u/own-alt.png"><img src='/u/empty.jpg' alt=' '>`,
        `<figure><img class="wide" src="/u/unknown.png" alt></figure>`,
      ],
    };
    expect(imagesWithoutAlt(item, library)).toEqual(["/u/empty.jpg", "/u/unknown.png"]);
    expect(imageUrlsOfItem(item)).toEqual(["/u/empty.jpg", "/u/described.jpg", "/u/french.jpg", "/u/unknown.png", "/u/own-alt.png"]);
  });

  it("finds none in an item whose pictures are all described, or that has none", () => {
    expect(imagesWithoutAlt({ images: ["/u/described.jpg"], bodies: ['<img src="/u/french.jpg">'] }, library)).toEqual([]);
    expect(imagesWithoutAlt({ images: [""], bodies: ["<p>بلا صور</p>"] }, {})).toEqual([]);
  });
});
