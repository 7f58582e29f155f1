/**
 * The tus DataStore on the Storage interface, against the local folder, a real S3 server (s3rver) and Bunny
 * Storage's protocol (the stand-in of tests/helpers): an upload created and sent in several PATCHes through one
 * endpoint, cut mid-body, then asked for its offset and finished through a second endpoint that shares nothing
 * with the first but the store (another process's view), read back byte for byte; pieces that overlap; a body
 * that breaks off; the daily removal of what nobody finished.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Upload } from "@tus/utils";
import { startFakeBunnyStorage } from "#tests/helpers/fake-bunny-storage.ts";
import { startS3Server } from "#tests/helpers/s3.ts";
import { tusClient } from "#tests/helpers/tus.ts";
import { BunnyStorage } from "./bunny.server.ts";
import { LocalStorage, type Storage } from "./index.server.ts";
import { S3Storage } from "./s3.server.ts";
import { createTusEndpoint } from "./tus.server.ts";
import { coveredLength, StorageTusStore } from "./tus-store.server.ts";

const KiB = 1024;
const PIECE = 64 * KiB;
const PREFIX = "tus/test";

type Backend = { name: string; start: () => Promise<{ storage: () => Storage; close: () => Promise<void> }> };

const backends: Backend[] = [
  {
    name: "local",
    async start() {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), "tus-store-local-"));
      return { storage: () => new LocalStorage(root), close: () => fs.rm(root, { recursive: true, force: true }) };
    },
  },
  {
    name: "s3",
    async start() {
      const s3 = await startS3Server();
      const options = { endpoint: s3.endpoint, region: "us-east-1", bucket: s3.bucket, publicUrl: s3.publicUrl, ...s3.credentials };
      return { storage: () => new S3Storage(options), close: () => s3.close() };
    },
  },
  {
    name: "bunny",
    async start() {
      const fake = await startFakeBunnyStorage();
      return {
        storage: () => new BunnyStorage({ zone: fake.zone, accessKey: fake.accessKey, cdnUrl: fake.cdnUrl, apiUrl: fake.apiUrl }),
        close: () => fake.close(),
      };
    },
  },
];

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** One endpoint over its own Storage object and DataStore: what one web process holds. */
async function startEndpoint(storage: Storage, completed: { url: string; size: number }[]) {
  const endpoint = createTusEndpoint({
    path: "/tus",
    store: { storage, prefix: PREFIX, pieceSize: PIECE },
    maxSize: 50 * 1024 * KiB,
    authorize: () => Promise.resolve(),
    refusals: { unauthenticated: "Sign in", forbidden: "No" },
    onCreate: ({ metadata }) => Promise.resolve(metadata),
    async onComplete({ head, size, open }) {
      // The head is the file's first bytes, exactly.
      expect(head.length).toBe(Math.min(16, size));
      const stored = await storage.put("done", "file.bin", await open(), "application/octet-stream", size);
      completed.push({ url: stored.key, size });
      return { "Upload-File-Url": stored.key };
    },
  });
  const app = express();
  app.use((req, res, next) => (endpoint.matches(req.path) ? void endpoint.handle(req, res).catch(() => {}) : next()));
  const server: http.Server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("how far pieces cover a file", () => {
  it("follows the pieces from byte 0 and stops at the first gap, whatever their order and overlaps", () => {
    expect(coveredLength([])).toBe(0);
    expect(coveredLength([{ start: 10, end: 20 }])).toBe(0);
    expect(
      coveredLength([
        { start: 10, end: 20 },
        { start: 0, end: 10 },
      ]),
    ).toBe(20);
    expect(
      coveredLength([
        { start: 0, end: 10 },
        { start: 5, end: 8 },
        { start: 8, end: 30 },
        { start: 31, end: 40 },
      ]),
    ).toBe(30);
    expect(
      coveredLength([
        { start: 0, end: 4 },
        { start: 0, end: 12 },
        { start: 4, end: 6 },
      ]),
    ).toBe(12);
  });
});

describe.each(backends)("the tus store on the $name storage", ({ start }) => {
  let backend: Awaited<ReturnType<Backend["start"]>>;
  beforeAll(async () => {
    backend = await start();
  });
  afterAll(async () => {
    await backend?.close();
  });

  it("takes an upload in several PATCHes on one endpoint, is cut mid-body, resumes through another, and reads back whole", { timeout: 60_000 }, async () => {
    const completedA: { url: string; size: number }[] = [];
    const completedB: { url: string; size: number }[] = [];
    const a = await startEndpoint(backend.storage(), completedA);
    const b = await startEndpoint(backend.storage(), completedB);
    try {
      const file = randomBytes(20 * PIECE + 12_345);
      const onA = tusClient(a.base, "/tus");
      const onB = tusClient(b.base, "/tus");
      const created = await onA.create(file.length, { filename: "long.bin", filetype: "application/octet-stream" });
      expect(created.status).toBe(201);
      const url = onA.uploadUrl(created);
      const urlOnB = url.replace(a.base, b.base);

      // Three PATCHes of sizes that fall across piece boundaries.
      let offset = 0;
      for (const length of [1000, 3 * PIECE + 17, 2 * PIECE - 1017]) {
        const res = await onA.patch(url, offset, file.subarray(offset, offset + length));
        expect(res.status).toBe(204);
        offset += length;
        expect(res.headers.get("upload-offset")).toBe(String(offset));
      }
      expect(offset).toBe(5 * PIECE);
      expect(await onB.offsetOf(urlOnB)).toBe(offset);

      // The link drops half-way through the rest: what reached endpoint A is kept and seen from B.
      await onA.patchAndDrop(url, offset, file, 7 * PIECE + 333);
      await expect.poll(() => onB.offsetOf(urlOnB), { timeout: 20_000 }).toBeGreaterThan(offset);
      expect(await onB.offsetOf(urlOnB)).toBeLessThan(file.length);
      expect(completedA).toEqual([]);

      // As tus-js-client does: A may still be storing what reached it, so the offset can move between the HEAD
      // and the PATCH, which is then refused with 409; the client asks again.
      let rest: Response;
      for (let attempt = 0; ; attempt++) {
        const resumeAt = await onB.offsetOf(urlOnB);
        rest = await onB.patch(urlOnB, resumeAt, file.subarray(resumeAt));
        if (rest.status !== 409 || attempt === 20) break;
      }
      expect(rest.status).toBe(204);
      expect(rest.headers.get("upload-offset")).toBe(String(file.length));
      expect(completedB).toHaveLength(1);
      const stored = await bytesOf(await backend.storage().read(completedB[0].url));
      expect(stored.length).toBe(file.length);
      expect(sha256(stored)).toBe(sha256(file));

      // Its pieces and description are gone; the upload is no more.
      expect(await backend.storage().list(PREFIX)).toEqual([]);
      expect((await fetch(urlOnB, { method: "HEAD", headers: { "Tus-Resumable": "1.0.0" } })).status).toBe(404);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("keeps what arrived of a body that breaks off, and reads right when a late piece overlaps a resumed one", async () => {
    const file = randomBytes(5 * PIECE + 100);
    const first = new StorageTusStore({ storage: backend.storage(), prefix: PREFIX, pieceSize: PIECE });
    const upload = await first.create(new Upload({ id: randomBytes(16).toString("hex"), size: file.length, offset: 0, metadata: {} }));

    // A body that stops with an error after 2.5 pieces: the error goes on, the bytes stay.
    const broken = Readable.from(
      (async function* () {
        yield file.subarray(0, PIECE);
        yield await Promise.resolve(file.subarray(PIECE, 2 * PIECE + PIECE / 2));
        throw new Error("connection reset");
      })(),
      { objectMode: false },
    );
    await expect(first.write(broken, upload.id, 0)).rejects.toThrow("connection reset");
    const second = new StorageTusStore({ storage: backend.storage(), prefix: PREFIX, pieceSize: PIECE });
    expect((await second.getUpload(upload.id)).offset).toBe(2 * PIECE + PIECE / 2);

    // Another process resumes from there to the end...
    const resumed = 2 * PIECE + PIECE / 2;
    expect(await second.write(Readable.from([file.subarray(resumed)], { objectMode: false }), upload.id, resumed)).toBe(file.length);
    // ...and the first, late, stores a piece that starts at the same offset and ends mid-way.
    expect(await first.write(Readable.from([file.subarray(resumed, resumed + 1000)], { objectMode: false }), upload.id, resumed)).toBe(resumed + 1000);

    const third = new StorageTusStore({ storage: backend.storage(), prefix: PREFIX, pieceSize: PIECE });
    expect((await third.getUpload(upload.id)).offset).toBe(file.length);
    expect(sha256(await bytesOf(await third.read(upload.id)))).toBe(sha256(file));
    await third.remove(upload.id);
    await expect(third.getUpload(upload.id)).rejects.toMatchObject({ status_code: 404 });
  });

  it("cuts a long body into 8 MiB pieces and streams the whole back into a file of its own", { timeout: 60_000 }, async () => {
    const size = 17 * 1024 * KiB + 5;
    const hash = createHash("sha256");
    async function* chunks() {
      for (let sent = 0; sent < size;) {
        const chunk = randomBytes(Math.min(64 * KiB, size - sent));
        hash.update(chunk);
        sent += chunk.length;
        yield await Promise.resolve(chunk);
      }
    }
    const store = new StorageTusStore({ storage: backend.storage(), prefix: PREFIX });
    const upload = await store.create(new Upload({ id: randomBytes(16).toString("hex"), size, offset: 0 }));
    expect(await store.write(Readable.from(chunks(), { objectMode: false }), upload.id, 0)).toBe(size);
    const pieces = (await backend.storage().list(`${PREFIX}/${upload.id}`)).filter((object) => !object.key.endsWith("info.json"));
    expect(pieces.map((piece) => piece.size).sort((a, b) => b - a)).toEqual([8 * 1024 * KiB, 8 * 1024 * KiB, 1024 * KiB + 5]);

    // Copied as a finished upload is: a stream of unknown make, its size announced (a multipart upload on S3).
    const placed = await backend.storage().put("done", "big.bin", await store.read(upload.id), "application/octet-stream", size);
    const back = createHash("sha256");
    let length = 0;
    for await (const chunk of await backend.storage().read(placed.key)) {
      back.update(chunk as Buffer);
      length += (chunk as Buffer).length;
    }
    expect({ length, sha256: back.digest("hex") }).toEqual({ length: size, sha256: hash.digest("hex") });
    await store.remove(upload.id);
    await backend.storage().remove(placed.key);
  });

  it("removes uploads older than the expiration, and pieces left without their upload, and nothing else", async () => {
    const storage = backend.storage();
    const day = new StorageTusStore({ storage, prefix: PREFIX, pieceSize: PIECE, expirationPeriodInMilliseconds: 86_400_000 });
    const old = await day.create(
      new Upload({ id: randomBytes(16).toString("hex"), size: 10, offset: 0, creation_date: new Date(Date.now() - 2 * 86_400_000).toISOString() }),
    );
    const fresh = await day.create(new Upload({ id: randomBytes(16).toString("hex"), size: 10, offset: 0 }));
    await day.write(Readable.from([Buffer.from("12345")], { objectMode: false }), old.id, 0);
    await day.write(Readable.from([Buffer.from("12345")], { objectMode: false }), fresh.id, 0);
    // A piece stored after its upload was finished and removed.
    const orphan = randomBytes(16).toString("hex");
    await storage.putAt(`${PREFIX}/${orphan}/000000000000000-0badcafe`, Buffer.from("late"), "application/octet-stream");

    expect(await day.deleteExpired()).toBe(1);
    const left = new Set((await storage.list(PREFIX)).map((object) => object.key.split("/")[2]));
    expect(left).toEqual(new Set([fresh.id, orphan]));

    // With a period already over for everything (pieces' times included), all of it goes.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const instant = new StorageTusStore({ storage, prefix: PREFIX, expirationPeriodInMilliseconds: 1 });
    expect(await instant.deleteExpired()).toBe(2);
    expect(await storage.list(PREFIX)).toEqual([]);
  });
});
