/**
 * The file checker of back-office.md §5 on real bytes, and the local driver on a real folder.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkImage, LocalStorage, safeFileName, storeImage, UploadError } from "./index.server.ts";
import { makePng } from "#tests/helpers/png.ts";

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 1, 0, 0, 1]);
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof UploadError ? [error.messageKey, error.values] : error;
  }
  return null;
};

describe("the image checker", () => {
  it("takes the type from the bytes, not from the name", () => {
    expect(checkImage("photo.png", 2048, PNG)).toEqual({ mime: "image/png", extension: "png" });
    expect(checkImage("looks-like.gif", 2048, JPEG)).toEqual({ mime: "image/jpeg", extension: "jpg" });
    // Refused with the types an image may be (issue 46: the spec's words stopped at «…»).
    const unsupported = ["desk.upload.unsupported", { types: "JPEG, PNG, GIF, WebP, AVIF" }];
    expect(refusal(() => checkImage("notes.png", 2048, new TextEncoder().encode("just some text here")))).toEqual(unsupported);
    expect(refusal(() => checkImage("drawing.svg", 2048, new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg">')))).toEqual(unsupported);
  });

  it("refuses the spec's blocked extensions whatever the content, empty files and files over 10 MB", () => {
    for (const ext of ["exe", "bat", "com", "cmd", "scr", "pif", "js", "vbs"])
      expect(refusal(() => checkImage(`image.${ext}`, 2048, PNG))).toEqual(["newsroom.v.fileUnsafe", {}]);
    expect(refusal(() => checkImage("", 0, new Uint8Array()))).toEqual(["newsroom.v.fileMissing", {}]);
    expect(refusal(() => checkImage("big.png", 10 * 1024 * 1024 + 1, PNG))).toEqual(["newsroom.v.fileTooLarge", { max: 10 }]);
  });

  it("keeps Arabic letters in stored names and drops everything risky", () => {
    expect(safeFileName("../../صورة الغلاف (1).PNG", "png")).toBe("صورة-الغلاف-1.png");
    expect(safeFileName("...", "jpg")).toBe("file.jpg");
  });
});

describe("the local storage driver", () => {
  it("stores a checked image under its folder and answers its public URL", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "sahara-storage-"));
    // A real PNG: stored re-encoded with its size in the name and a WebP copy beside it (images.test.ts).
    const stored = await storeImage(new File([new Uint8Array(makePng(64, 36))], "غلاف.png", { type: "image/png" }), "news", new LocalStorage(root));
    expect(stored.url).toMatch(/^\/uploads\/news\/\d+-[0-9a-f]{6}-/);
    expect(decodeURIComponent(stored.url)).toMatch(/غلاف\.64x36\.png$/);
    expect(fs.readFileSync(path.join(root, stored.key)).subarray(0, 8)).toEqual(Buffer.from(PNG.subarray(0, 8)));
    expect(fs.readdirSync(path.join(root, "news")).some((f) => f.endsWith(".part"))).toBe(false);
    await expect(storeImage(new File(["MZ not an image"], "x.exe"), "news", new LocalStorage(root))).rejects.toBeInstanceOf(UploadError);
    expect(fs.readdirSync(path.join(root, "news"))).toHaveLength(2);
  });
});
