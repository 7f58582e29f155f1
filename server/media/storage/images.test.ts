/**
 * Resized copies of uploaded images (decision 0104) on real bytes made here with sharp, stored by the
 * local driver in a temporary folder: the copies' sizes and formats, EXIF orientation applied and metadata
 * gone, no upscaling, GIFs kept as uploaded, undecodable files and pixel bombs refused with nothing stored.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageSources } from "#domain/image-sources.ts";
import type { Storage, StoredFile } from "./driver.server.ts";
import { removeImage } from "./images.server.ts";
import { LocalStorage, storeImage, UploadError } from "./index.server.ts";

const SECRET = "Reporter-Home-Address";

/** A photo-like JPEG (a gradient, so that sizes and formats matter), with EXIF a phone would write. */
async function photo(width: number, height: number, orientation?: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels.set([(x * 255) / width, (y * 255) / height, 120], (y * width + x) * 3);
  let image = sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Artist: SECRET, Copyright: SECRET }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "24/1 28/1 0/1" } });
  if (orientation) image = image.withMetadata({ orientation });
  return image.toBuffer();
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 200, g: 120, b: 40, alpha: 0.5 } } })
    .png()
    .toBuffer();

function setUp() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-images-"));
  const files = (folder = "news") => (fs.existsSync(path.join(root, folder)) ? fs.readdirSync(path.join(root, folder)).sort() : []);
  const read = (key: string) => fs.readFileSync(path.join(root, ...key.split("/")));
  return { root, storage: new LocalStorage(root), files, read };
}

const upload = (bytes: Uint8Array, name: string, storage: Storage) => storeImage(new File([new Uint8Array(bytes)], name), "news", storage);

/** The file a URL of the local driver names, as a key. */
const keyOf = (url: string) => decodeURIComponent(url.replace(/^\/uploads\//, ""));

/** The srcset's candidates: [key, declared width]. */
const candidates = (srcSet: string | undefined) =>
  (srcSet ?? "").split(", ").map((c) => {
    const [url, w] = c.split(" ");
    return [keyOf(url), Number(w.replace("w", ""))] as const;
  });

describe("resized copies of an uploaded image", () => {
  it("makes every smaller width in WebP and the original's format, named from the original, and nothing more", async () => {
    const { root, storage, files, read } = setUp();
    const stored = await upload(await photo(1600, 900), "غلاف الخبر.jpg", storage);
    expect(decodeURIComponent(stored.url)).toMatch(/-غلاف-الخبر\.1600x900\.jpg$/);
    const stem = stored.key.replace(/\.jpg$/, "");
    const name = path.posix.basename(stem);
    expect(files()).toEqual(
      [`${name}.jpg`, ...[320, 640, 960, 1280].map((w) => `${name}.w${w}.jpg`), ...[320, 640, 960, 1280, 1600].map((w) => `${name}.w${w}.webp`)].sort(),
    );
    for (const [format, widths] of [
      ["jpeg", [320, 640, 960, 1280]],
      ["webp", [320, 640, 960, 1280, 1600]],
    ] as const) {
      for (const w of widths) {
        const meta = await sharp(read(`${stem}.w${w}.${format === "jpeg" ? "jpg" : "webp"}`)).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual([format, w, Math.round((w * 900) / 1600)]);
      }
    }
    const original = await sharp(read(stored.key)).metadata();
    expect([original.format, original.width, original.height]).toEqual(["jpeg", 1600, 900]);
    // The WebP copy of the same width is smaller than the JPEG (what readers on costly data get).
    expect(read(`${stem}.w640.webp`).length).toBeLessThan(read(`${stem}.w640.jpg`).length);

    // The public side names exactly these files from the URL alone.
    const sources = imageSources(stored.url);
    expect(sources).toMatchObject({ src: stored.url, width: 1600, height: 900 });
    for (const [key] of [...candidates(sources.srcSet), ...candidates(sources.webpSrcSet)]) expect(fs.existsSync(path.join(root, key)), key).toBe(true);
    expect(candidates(sources.srcSet).map(([, w]) => w)).toEqual([320, 640, 960, 1280, 1600]);
  });

  it("turns a photo upright by its EXIF orientation and keeps none of its metadata (GPS, author)", async () => {
    const { storage, files, read } = setUp();
    const input = await photo(1600, 900, 6);
    const before = await sharp(input).metadata();
    expect([before.orientation, !!before.exif, input.includes(SECRET)]).toEqual([6, true, true]);
    const stored = await upload(input, "portrait.jpg", storage);
    // Orientation 6 is a quarter turn: the reader sees it 900 wide and 1600 tall.
    expect(stored.key).toMatch(/-portrait\.900x1600\.jpg$/);
    expect(files()).toHaveLength(1 + 2 + 3); // original, 320/640 JPEG, 320/640/900 WebP
    for (const file of files()) {
      const bytes = read(`news/${file}`);
      const meta = await sharp(bytes).metadata();
      expect([meta.exif, meta.xmp, meta.iptc, meta.orientation], file).toEqual([undefined, undefined, undefined, undefined]);
      expect(meta.height! > meta.width!, file).toBe(true);
      expect(bytes.includes(SECRET), file).toBe(false);
    }
  });

  it("keeps PNG (and its transparency) as PNG beside the WebP copies", async () => {
    const { storage, read } = setUp();
    const stored = await upload(await png(1000, 500), "logo.png", storage);
    expect(stored.key).toMatch(/\.1000x500\.png$/);
    const stem = stored.key.replace(/\.png$/, "");
    for (const file of [stored.key, `${stem}.w960.png`, `${stem}.w320.webp`, `${stem}.w1000.webp`]) {
      const meta = await sharp(read(file)).metadata();
      expect(meta.hasAlpha, file).toBe(true);
    }
    expect((await sharp(read(`${stem}.w640.png`)).metadata()).format).toBe("png");
  });

  it("never upscales: a small image has only itself and a WebP copy of its own size", async () => {
    const { storage, files } = setUp();
    const stored = await upload(await photo(300, 200), "tiny.jpg", storage);
    const name = path.posix.basename(stored.key).replace(/\.jpg$/, "");
    expect(files()).toEqual([`${name}.jpg`, `${name}.w300.webp`]);
    expect(imageSources(stored.url).srcSet).toBe(`${stored.url} 300w`);

    // Exactly a ladder width: that width is the original, not a copy.
    const { storage: s2, files: f2 } = setUp();
    const at640 = await upload(await photo(640, 360), "edge.jpg", s2);
    const n2 = path.posix.basename(at640.key).replace(/\.jpg$/, "");
    expect(f2()).toEqual([`${n2}.jpg`, `${n2}.w320.jpg`, `${n2}.w320.webp`, `${n2}.w640.webp`]);
  });

  it("keeps a GIF as uploaded (it may be animated), with its size in the name and no copies", async () => {
    const { storage, files, read } = setUp();
    const frames = await Promise.all(
      ["red", "blue"].map((c) =>
        sharp({ create: { width: 40, height: 30, channels: 3, background: c } })
          .png()
          .toBuffer(),
      ),
    );
    const gif = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    const stored = await upload(gif, "spinner.gif", storage);
    expect(stored.key).toMatch(/-spinner\.40x30\.gif$/);
    expect(files()).toHaveLength(1);
    expect(read(stored.key).equals(gif)).toBe(true);
    expect(imageSources(stored.url)).toEqual({ src: stored.url, width: 40, height: 30 });
  });

  it("refuses bytes that are not a decodable image, and pixel bombs, with the spec's message and nothing stored", async () => {
    const { storage, files } = setUp();
    const good = await photo(64, 64);
    const corrupt = Buffer.concat([good.subarray(0, 20), Buffer.alloc(2000, 0x5a)]);
    const refusal = await upload(corrupt, "broken.jpg", storage).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(UploadError);
    expect((refusal as UploadError).messageKey).toBe("desk.upload.unsupported");
    // A real JPEG cut short: its header reads, its pixels do not.
    const cut = await upload(good.subarray(0, Math.floor(good.length / 2)), "cut.jpg", storage).catch((e: unknown) => e);
    expect((cut as UploadError).messageKey).toBe("desk.upload.unsupported");

    // A PNG declaring 20000×20000 (400 MP) in a few hundred bytes: refused from its header, never decoded.
    const bomb = pngHeaderOnly(20_000, 20_000);
    const bombRefusal = await upload(bomb, "bomb.png", storage).catch((e: unknown) => e);
    expect((bombRefusal as UploadError).messageKey).toBe("desk.upload.unsupported");
    expect(files()).toEqual([]);
  });

  it("removes what it stored when a copy cannot be stored, and removeImage() takes an image with its copies", async () => {
    const { storage, files } = setUp();
    let writes = 0;
    const failing = Object.assign(Object.create(storage) as LocalStorage, {
      putAt(key: string, body: Uint8Array, type: string): Promise<StoredFile> {
        if (++writes === 3) return Promise.reject(new Error("store unreachable"));
        return storage.putAt(key, body, type);
      },
    });
    await expect(upload(await photo(1000, 600), "cover.jpg", failing)).rejects.toThrow("store unreachable");
    expect(files()).toEqual([]);

    const stored = await upload(await photo(1000, 600), "cover.jpg", storage);
    expect(files()).toHaveLength(1 + 3 + 4);
    await removeImage(storage, stored.key);
    expect(files()).toEqual([]);
  });
});

/** A PNG whose header declares `width`×`height` with one row of data: the shape of a decompression bomb. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(Buffer.alloc(width + 1))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
