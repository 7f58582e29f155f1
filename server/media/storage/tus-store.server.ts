/**
 * A tus DataStore on the `Storage` interface (local, S3 or Bunny), so an upload begun through one process can go
 * on through another: nothing of it lives in a process's memory or on its disk between requests (decision 0119).
 * @tus/s3-store is not used: it needs ListParts and AbortMultipartUpload, which not every S3-compatible store
 * has, and it would leave Bunny out.
 *
 * Layout under `{prefix}/{id}/`:
 * - `info.json`: the upload as created (size, metadata, creation date);
 * - the bytes as pieces named `{start offset, 15 digits}-{writer tag}`, cut from each PATCH body at `pieceSize`
 *   bytes, so a process holds at most one piece per upload in memory; what arrived of a body cut short is
 *   stored as a piece of its own when the request ends, as FileStore keeps what reached its file.
 * The offset is how far the pieces cover the file without a gap from 0. Pieces may overlap: a process whose
 * client vanished can store its last piece after the client has resumed through another process from an
 * earlier offset. Both hold the same bytes of the same file, and the writer tag keeps the two from replacing
 * each other, so the coverage (and the bytes read back) stay right whichever lands last.
 */
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { DataStore, ERRORS, Upload } from "@tus/utils";
import { logger } from "#server/ops/logger.server.ts";
import { collect, StorageError, type ListedObject, type Storage } from "./driver.server.ts";

const MiB = 1024 * 1024;

export type StorageTusStoreOptions = {
  storage: Storage;
  /** The folder of this endpoint's uploads in the storage, e.g. `tus/videos`. */
  prefix: string;
  /** Bytes per stored piece: the most one upload holds in memory while it arrives. */
  pieceSize?: number;
  /** An unfinished upload older than this is removed by `deleteExpired` (0: never). */
  expirationPeriodInMilliseconds?: number;
};

type Piece = { key: string; start: number; end: number };

/** The description kept in `info.json`. */
type Info = { id: string; size?: number; metadata?: Record<string, string | null>; creation_date?: string };

const INFO = "info.json";
const PIECE = /^(\d{15})-[0-9a-f]{8}$/;
/** tus's default ids are 32 hex digits; anything else in a URL names no upload here. */
const UPLOAD_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** How far `pieces` cover the file from byte 0 without a gap. */
export function coveredLength(pieces: readonly Pick<Piece, "start" | "end">[]): number {
  let covered = 0;
  for (const piece of [...pieces].sort((a, b) => a.start - b.start || b.end - a.end)) {
    if (piece.start > covered) break;
    covered = Math.max(covered, piece.end);
  }
  return covered;
}

export class StorageTusStore extends DataStore {
  readonly storage: Storage;
  readonly prefix: string;
  readonly pieceSize: number;
  readonly expirationPeriodInMilliseconds: number;

  constructor(options: StorageTusStoreOptions) {
    super();
    this.storage = options.storage;
    this.prefix = options.prefix.replace(/\/+$/, "");
    this.pieceSize = Math.max(options.pieceSize ?? 8 * MiB, 1);
    this.expirationPeriodInMilliseconds = options.expirationPeriodInMilliseconds ?? 0;
    this.extensions = ["creation", "creation-with-upload", "creation-defer-length", "termination", "expiration"];
  }

  async create(upload: Upload): Promise<Upload> {
    const info: Info = { id: upload.id, size: upload.size, metadata: upload.metadata, creation_date: upload.creation_date };
    await this.writeInfo(info);
    upload.storage = { type: "storage", path: this.folderOf(upload.id) };
    return upload;
  }

  async getUpload(id: string): Promise<Upload> {
    const [info, pieces] = await Promise.all([this.readInfo(id), this.pieces(id)]);
    return new Upload({
      id,
      size: info.size,
      offset: coveredLength(pieces),
      metadata: info.metadata,
      creation_date: info.creation_date,
      storage: { type: "storage", path: this.folderOf(id) },
    });
  }

  async declareUploadLength(id: string, length: number): Promise<void> {
    const info = await this.readInfo(id);
    await this.writeInfo({ ...info, size: length });
  }

  /**
   * Stores the body from `offset` in pieces, each awaited before more is read (back-pressure reaches the
   * client), and answers the new offset. When the body breaks off, what arrived is stored before the error
   * goes on: the client resumes from there, through this process or any other.
   */
  async write(readable: Readable, id: string, offset: number): Promise<number> {
    const folder = this.folderOf(id);
    const tag = randomBytes(4).toString("hex");
    let buffer: Buffer | null = null;
    let filled = 0;
    let start = offset;
    const flush = async () => {
      if (!buffer || filled === 0) return;
      const key = `${folder}/${String(start).padStart(15, "0")}-${tag}`;
      await this.storage.putAt(key, buffer.subarray(0, filled), "application/octet-stream", filled);
      start += filled;
      filled = 0;
    };
    try {
      for await (const chunk of readable as AsyncIterable<Buffer>) {
        let rest = chunk;
        while (rest.length) {
          buffer ??= Buffer.allocUnsafe(this.pieceSize);
          const taken = rest.copy(buffer, filled, 0, Math.min(rest.length, this.pieceSize - filled));
          filled += taken;
          rest = rest.subarray(taken);
          if (filled === this.pieceSize) await flush();
        }
      }
    } catch (error) {
      if (!(error instanceof StorageError)) {
        await flush().catch((flushError: unknown) => logger.warn({ err: flushError, upload: id }, "the last piece of a broken-off upload was not stored"));
      }
      throw error;
    }
    await flush();
    return start;
  }

  /** The complete upload's bytes, read piece after piece as the consumer pulls: never held whole. */
  async read(id: string): Promise<Readable> {
    const [info, pieces] = await Promise.all([this.readInfo(id), this.pieces(id)]);
    const size = info.size ?? coveredLength(pieces);
    if (coveredLength(pieces) < size) throw ERRORS.FILE_NOT_FOUND;
    const storage = this.storage;
    const ordered = [...pieces].sort((a, b) => a.start - b.start || b.end - a.end);
    async function* bytes() {
      let position = 0;
      for (const piece of ordered) {
        if (position >= size) break;
        if (piece.end <= position) continue;
        // Overlapping pieces hold the same bytes: skip what an earlier one gave.
        let skip = position - piece.start;
        for await (const chunk of (await storage.read(piece.key)) as AsyncIterable<Buffer>) {
          let part = chunk;
          if (skip > 0) {
            const dropped = Math.min(skip, part.length);
            part = part.subarray(dropped);
            skip -= dropped;
          }
          if (position + part.length > size) part = part.subarray(0, size - position);
          if (!part.length) continue;
          position += part.length;
          yield part;
        }
      }
    }
    return Readable.from(bytes(), { objectMode: false });
  }

  async remove(id: string): Promise<void> {
    await this.readInfo(id);
    await this.storage.removePrefix(this.folderOf(id));
  }

  /** Removes uploads begun longer ago than the expiration, and pieces left without their upload. */
  async deleteExpired(): Promise<number> {
    const expiration = this.getExpiration();
    if (expiration <= 0) return 0;
    const cutoff = Date.now() - expiration;
    const byUpload = new Map<string, ListedObject[]>();
    for (const object of await this.storage.list(this.prefix)) {
      const id = object.key.slice(this.prefix.length + 1).split("/")[0];
      if (!UPLOAD_ID.test(id)) continue;
      byUpload.set(id, [...(byUpload.get(id) ?? []), object]);
    }
    let removed = 0;
    for (const [id, objects] of byUpload) {
      let expired: boolean;
      if (objects.some((object) => object.key.endsWith(`/${INFO}`))) {
        // Unreadable just now (the store briefly away): kept until the next round.
        const info = await this.readInfo(id).catch(() => null);
        if (!info) continue;
        expired = Date.parse(info.creation_date ?? "") < cutoff;
      } else {
        // Pieces stored after their upload was finished or removed (a broken-off request's last piece).
        expired = objects.every((object) => object.modified !== undefined && object.modified.getTime() < cutoff);
      }
      if (!expired) continue;
      await this.storage.removePrefix(this.folderOf(id));
      removed++;
    }
    return removed;
  }

  getExpiration(): number {
    return this.expirationPeriodInMilliseconds;
  }

  private folderOf(id: string): string {
    if (!UPLOAD_ID.test(id)) throw ERRORS.FILE_NOT_FOUND;
    return `${this.prefix}/${id}`;
  }

  private async writeInfo(info: Info): Promise<void> {
    const body = Buffer.from(JSON.stringify(info));
    await this.storage.putAt(`${this.folderOf(info.id)}/${INFO}`, body, "application/json", body.length);
  }

  private async readInfo(id: string): Promise<Info> {
    try {
      const info = JSON.parse((await collect(await this.storage.read(`${this.folderOf(id)}/${INFO}`), 1024 * 1024)).toString("utf8")) as Info;
      return { ...info, id };
    } catch (error) {
      if (error instanceof StorageError && error.status === 404) throw ERRORS.FILE_NOT_FOUND;
      throw error;
    }
  }

  private async pieces(id: string): Promise<Piece[]> {
    const folder = this.folderOf(id);
    const pieces: Piece[] = [];
    for (const object of await this.storage.list(folder)) {
      const match = PIECE.exec(object.key.slice(folder.length + 1));
      if (match && object.size > 0) pieces.push({ key: object.key, start: Number(match[1]), end: Number(match[1]) + object.size });
    }
    return pieces;
  }
}
