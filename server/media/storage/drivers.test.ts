/**
 * One suite, three drivers: the same tests run against the local folder (served by express.static as
 * /uploads is), a real S3 server (s3rver on a random port) and Bunny Storage's HTTP protocol (the fake in
 * tests/helpers, whose second port plays the pull zone). Every file is read back through its public URL.
 */
import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { inspect } from "node:util";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeBunnyStorage } from "#tests/helpers/fake-bunny-storage.ts";
import { checkConfig } from "#server/config.server.ts";
import { BunnyStorage } from "./bunny.server.ts";
import { createStorage, LocalStorage, StorageError, type Storage } from "./index.server.ts";
import { S3Storage } from "./s3.server.ts";

const MiB = 1024 * 1024;
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 1, 2, 3, 4]);

type Fixture = {
  storage: Storage;
  /** The same store reached with a wrong key; absent where there is no key. */
  wrongKey?: Storage;
  /** Every file the store holds, finished or not, as it names them. */
  held: () => Promise<string[]>;
  /** Body bytes that have reached the store so far. */
  received: () => Promise<number>;
  /** How far the driver may read ahead of what the store has received. */
  maxAhead: number;
  close: () => Promise<void>;
};

type Driver = { name: string; hasKey: boolean; start: () => Promise<Fixture> };

async function filesUnder(root: string): Promise<{ name: string; size: number }[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const full = path.join(entry.parentPath, entry.name);
        return { name: path.relative(root, full).split(path.sep).join("/"), size: (await fs.stat(full).catch(() => ({ size: 0 }))).size };
      }),
  );
}

const totalSize = async (root: string) => (await filesUnder(root)).reduce((sum, file) => sum + file.size, 0);

type S3rverInstance = { run: () => Promise<AddressInfo>; close: () => Promise<void> };
type S3rverClass = new (options: { address: string; port: number; silent: boolean; directory: string; configureBuckets: { name: string }[] }) => S3rverInstance;
// s3rver ships no types; only its constructor, run and close are used.
const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;

const drivers: Driver[] = [
  {
    name: "local",
    hasKey: false,
    async start() {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), "storage-local-"));
      const app = express();
      app.use("/uploads", express.static(root, { index: false, dotfiles: "deny" }));
      const server = app.listen(0, "127.0.0.1");
      await once(server, "listening");
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return {
        storage: new LocalStorage(root, `${base}/uploads`),
        held: async () => (await filesUnder(root)).map((file) => file.name),
        received: () => totalSize(root),
        maxAhead: 4 * MiB,
        close: async () => {
          server.closeAllConnections();
          await new Promise((resolve) => server.close(resolve));
          await fs.rm(root, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: "s3",
    hasKey: true,
    async start() {
      const directory = await fs.mkdtemp(path.join(os.tmpdir(), "storage-s3rver-"));
      const bucket = "sahara-media";
      const s3rver = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
      const { port } = await s3rver.run();
      const endpoint = `http://127.0.0.1:${port}`;
      // s3rver knows one account, S3RVER/S3RVER, and checks the key id of version-4 signatures.
      const options = { endpoint, region: "us-east-1", bucket, publicUrl: `${endpoint}/${bucket}`, partSize: 5 * MiB, queueSize: 2 };
      const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
      const lister = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials });
      return {
        storage: new S3Storage({ ...options, ...credentials }),
        wrongKey: new S3Storage({ ...options, accessKeyId: "AKIAWRONGKEY0000", secretAccessKey: "not-the-secret-4711" }),
        held: async () => {
          const listed = await lister.send(new ListObjectsV2Command({ Bucket: bucket }));
          return (listed.Contents ?? []).map((object) => object.Key ?? "");
        },
        received: () => totalSize(directory),
        // Two parts of 5 MiB in flight, plus what sits in the stream and socket buffers.
        maxAhead: 14 * MiB,
        close: async () => {
          lister.destroy();
          await s3rver.close();
          await fs.rm(directory, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: "bunny",
    hasKey: true,
    async start() {
      const fake = await startFakeBunnyStorage();
      const options = { zone: fake.zone, cdnUrl: fake.cdnUrl, apiUrl: fake.apiUrl };
      return {
        storage: new BunnyStorage({ ...options, accessKey: fake.accessKey }),
        wrongKey: new BunnyStorage({ ...options, accessKey: "not-the-zone-password" }),
        held: () => Promise.resolve([...fake.files.keys()]),
        received: () => Promise.resolve(fake.bytesReceived()),
        // What the kernel's socket buffers hold on the way (a few MiB on loopback); a driver reading the
        // whole file first would be 20 MiB ahead.
        maxAhead: 12 * MiB,
        close: () => fake.close(),
      };
    },
  },
];

/**
 * `size` random bytes made 64 KiB at a time as the consumer pulls, hashed on the way. Every MiB it notes
 * how far production runs ahead of what the store has received.
 */
function generated(size: number, received?: () => Promise<number>) {
  const hash = createHash("sha256");
  let produced = 0;
  let maxAhead = 0;
  async function* chunks() {
    const start = received ? await received() : 0;
    let nextProbe = 0;
    while (produced < size) {
      if (received && produced >= nextProbe) {
        maxAhead = Math.max(maxAhead, produced - ((await received()) - start));
        nextProbe += MiB;
      }
      const chunk = randomBytes(Math.min(64 * 1024, size - produced));
      hash.update(chunk);
      produced += chunk.length;
      yield chunk;
    }
  }
  return { stream: Readable.from(chunks(), { objectMode: false }), sha256: () => hash.digest("hex"), maxAhead: () => maxAhead };
}

async function download(url: string) {
  const response = await fetch(url);
  const hash = createHash("sha256");
  let size = 0;
  if (response.ok && response.body) {
    const reader = response.body.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      hash.update(part.value);
      size += part.value.byteLength;
    }
  } else {
    await response.body?.cancel();
  }
  return { status: response.status, type: response.headers.get("content-type"), size, sha256: hash.digest("hex") };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe.each(drivers)("the $name storage driver", ({ start, hasKey }) => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await start();
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it("stores bytes under {folder}/{timestamp}-{filename} and serves them at the public URL with their type", async () => {
    const stored = await fixture.storage.put("news", "cover.png", PNG, "image/png");
    expect(stored.key).toMatch(/^news\/\d{13}-[0-9a-f]{6}-cover\.png$/);
    expect(stored.url).toBe(fixture.storage.publicUrl(stored.key));
    expect(await fixture.held()).toContain(stored.key);
    const served = await download(stored.url);
    expect(served).toMatchObject({ status: 200, size: PNG.byteLength, sha256: sha256(PNG) });
    expect(served.type).toMatch(/^image\/png/);
  });

  it("streams a 20 MB file through without holding it in memory", async () => {
    const size = 20 * MiB + 12_345;
    const source = generated(size, fixture.received);
    const stored = await fixture.storage.put("programs/videos", "clip.mp4", source.stream, "video/mp4", size);
    const expected = source.sha256();
    expect(source.maxAhead()).toBeLessThan(fixture.maxAhead);
    const served = await download(stored.url);
    expect(served).toMatchObject({ status: 200, size, sha256: expected });
    expect(served.type).toMatch(/^video\/mp4/);
  });

  it("takes a stream whose length is not known in advance", async () => {
    const size = 3 * MiB + 7;
    const source = generated(size);
    const stored = await fixture.storage.put("podcasts/audio", "episode.mp3", source.stream, "audio/mpeg");
    expect(await download(stored.url)).toMatchObject({ status: 200, size, sha256: source.sha256() });
  });

  it("refuses a stream shorter than announced and keeps nothing of it", async () => {
    const before = await fixture.held();
    const source = generated(1 * MiB);
    const failure = await fixture.storage.put("news", "short.mp4", source.stream, "video/mp4", 2 * MiB).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StorageError);
    expect((failure as Error).message).toMatch(/^Upload failed/);
    await expect.poll(() => fixture.held()).toEqual(before);
  });

  it("stores at an exact key beside another file, replacing what was there", async () => {
    const original = await fixture.storage.put("news", "photo.1600x900.jpg", PNG, "image/jpeg");
    const beside = original.key.replace(/\.jpg$/, ".w640.webp");
    const driver = fixture.storage;
    await driver.putAt(beside, Uint8Array.from([1, 2, 3]), "image/webp");
    const copy = await driver.putAt(beside, PNG.slice(0, 8), "image/webp");
    expect(copy).toEqual({ key: beside, url: fixture.storage.publicUrl(beside) });
    expect(await download(copy.url)).toMatchObject({ status: 200, size: 8, sha256: sha256(PNG.slice(0, 8)) });
    await expect(driver.putAt("../escape.webp", PNG, "image/webp")).rejects.toBeInstanceOf(StorageError);
  });

  it("reads a stored file back as a stream, and says 404 for a key that is not there", async () => {
    const size = 3 * MiB + 11;
    const source = generated(size);
    const stored = await fixture.storage.putAt("reads/a/clip.bin", source.stream, "application/octet-stream", size);
    const hash = createHash("sha256");
    let read = 0;
    for await (const chunk of await fixture.storage.read(stored.key)) {
      hash.update(chunk as Buffer);
      read += (chunk as Buffer).length;
    }
    expect({ read, sha256: hash.digest("hex") }).toEqual({ read: size, sha256: source.sha256() });
    const missing = await fixture.storage.read("reads/a/none.bin").catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(StorageError);
    expect((missing as StorageError).status).toBe(404);
    await expect(fixture.storage.read("../outside.txt")).rejects.toBeInstanceOf(StorageError);
  });

  it("lists a folder with its subfolders and sizes, and removes it whole", async () => {
    await fixture.storage.putAt("tree/v1/playlist.m3u8", Uint8Array.from([1, 2, 3]), "application/vnd.apple.mpegurl");
    await fixture.storage.putAt("tree/v1/360p/segment_000.ts", new Uint8Array(10), "video/mp2t");
    await fixture.storage.putAt("tree/v1/360p/segment_001.ts", new Uint8Array(20), "video/mp2t");
    await fixture.storage.putAt("tree/v2/playlist.m3u8", Uint8Array.from([4]), "application/vnd.apple.mpegurl");
    const listed = await fixture.storage.list("tree/v1");
    expect(listed.map(({ key, size }) => ({ key, size })).sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: "tree/v1/360p/segment_000.ts", size: 10 },
      { key: "tree/v1/360p/segment_001.ts", size: 20 },
      { key: "tree/v1/playlist.m3u8", size: 3 },
    ]);
    for (const object of listed) expect(Math.abs(object.modified!.getTime() - Date.now())).toBeLessThan(3600_000);
    expect(await fixture.storage.list("tree/none")).toEqual([]);

    await fixture.storage.removePrefix("tree/v1");
    expect(await fixture.storage.list("tree/v1")).toEqual([]);
    expect((await fixture.held()).filter((key) => key.startsWith("tree/"))).toEqual(["tree/v2/playlist.m3u8"]);
    await expect(fixture.storage.removePrefix("tree/v1")).resolves.toBeUndefined();
    await expect(fixture.storage.removePrefix("../tree")).rejects.toBeInstanceOf(StorageError);
  });

  it("removes a file, and removing it again is no error", async () => {
    const stored = await fixture.storage.put("coverage/images", "gone.png", PNG, "image/png");
    await fixture.storage.remove(stored.key);
    expect(await fixture.held()).not.toContain(stored.key);
    expect((await download(stored.url)).status).toBe(404);
    await expect(fixture.storage.remove(stored.key)).resolves.toBeUndefined();
  });

  it("refuses paths that would leave the store", async () => {
    const before = await fixture.held();
    await expect(fixture.storage.remove("../outside.txt")).rejects.toBeInstanceOf(StorageError);
    await expect(fixture.storage.remove("news/.hidden")).rejects.toBeInstanceOf(StorageError);
    await expect(fixture.storage.put("../news", "x.png", PNG, "image/png")).rejects.toBeInstanceOf(StorageError);
    await expect(fixture.storage.put("news", "a/b.png", PNG, "image/png")).rejects.toBeInstanceOf(StorageError);
    expect(await fixture.held()).toEqual(before);
  });

  it("keeps an Arabic file name, in the store and in a valid URL", async () => {
    const name = "تقرير-المؤتمر-الصحفي.png";
    const stored = await fixture.storage.put("news", name, PNG, "image/png");
    expect(stored.key.endsWith(`-${name}`)).toBe(true);
    expect(await fixture.held()).toContain(stored.key);
    expect(stored.url).toMatch(/^[\x21-\x7e]+$/);
    expect(decodeURIComponent(stored.url).endsWith(`/${stored.key}`)).toBe(true);
    expect(await download(stored.url)).toMatchObject({ status: 200, sha256: sha256(PNG) });
  });

  it.runIf(hasKey)("with a wrong key, fails with the status and stores nothing", async () => {
    const store = fixture.wrongKey!;
    const before = await fixture.held();
    const small = await store.put("news", "refused.png", PNG, "image/png").catch((error: unknown) => error);
    expect(small).toBeInstanceOf(StorageError);
    expect((small as StorageError).message).toMatch(/^Upload failed with status (401|403): \S/);
    expect([401, 403]).toContain((small as StorageError).status);
    // A large body is refused as well, without the whole of it being sent first.
    const large = await store.put("news", "refused.mp4", generated(12 * MiB).stream, "video/mp4", 12 * MiB).catch((error: unknown) => error);
    expect((large as StorageError).message).toMatch(/^Upload failed with status (401|403)/);
    for (const error of [small, large]) expect(inspect(error)).not.toMatch(/not-the-|AKIAWRONG/);
    await expect.poll(() => fixture.held()).toEqual(before);
  });
});

describe("choosing the driver", () => {
  const base = { NODE_ENV: "development", DATA_DIR: os.tmpdir() };
  const bunny = {
    STORAGE_DRIVER: "bunny",
    CDN_URL: "https://sahara.b-cdn.net/",
    BUNNY_STORAGE_ZONE: "sahara",
    BUNNY_STORAGE_API_KEY: "zone-password-9d1e77",
    BUNNY_STORAGE_HOST: "uk.storage.bunnycdn.com",
  };
  const s3 = {
    STORAGE_DRIVER: "s3",
    S3_ENDPOINT: "https://account.r2.cloudflarestorage.com",
    S3_BUCKET: "media",
    S3_ACCESS_KEY_ID: "AKIA0123456789ABCD",
    S3_SECRET_ACCESS_KEY: "s3-secret-0123456789abcdef",
    S3_PUBLIC_URL: "https://media.sahara-media.mr",
  };

  it("follows STORAGE_DRIVER, and builds public URLs from CDN_URL or S3_PUBLIC_URL", () => {
    expect(createStorage(checkConfig(base).config)).toBeInstanceOf(LocalStorage);
    const onBunny = createStorage(checkConfig({ ...base, ...bunny }).config);
    expect(onBunny).toBeInstanceOf(BunnyStorage);
    expect(inspect(onBunny)).toContain("https://uk.storage.bunnycdn.com");
    expect(onBunny.publicUrl("news/1-abc123-غلاف.png")).toBe(`https://sahara.b-cdn.net/news/1-abc123-${encodeURIComponent("غلاف.png")}`);
    const onS3 = createStorage(checkConfig({ ...base, ...s3 }).config);
    expect(onS3).toBeInstanceOf(S3Storage);
    expect(onS3.publicUrl("news/1-abc123-cover.png")).toBe("https://media.sahara-media.mr/news/1-abc123-cover.png");
  });

  it("stays local outside production when a hosted driver lacks its settings", () => {
    expect(createStorage(checkConfig({ ...base, STORAGE_DRIVER: "bunny" }).config)).toBeInstanceOf(LocalStorage);
    expect(createStorage(checkConfig({ ...base, STORAGE_DRIVER: "s3", S3_BUCKET: "media" }).config)).toBeInstanceOf(LocalStorage);
  });

  it("never shows a key when a driver is inspected or serialised", () => {
    for (const storage of [createStorage(checkConfig({ ...base, ...bunny }).config), createStorage(checkConfig({ ...base, ...s3 }).config)]) {
      const shown = inspect(storage, { depth: 10, showHidden: true }) + JSON.stringify(storage);
      for (const secret of [bunny.BUNNY_STORAGE_API_KEY, s3.S3_ACCESS_KEY_ID, s3.S3_SECRET_ACCESS_KEY]) expect(shown).not.toContain(secret);
    }
  });
});
