/**
 * The container of a backup (docs/decisions/0108-backups.md): a gzip-compressed POSIX tar (ustar headers,
 * pax records for long or non-ASCII names and sizes over 8 GB), so `tar -tzf` lists it anywhere. Written and
 * read as streams: memory holds one chunk of one file, never a whole file or the whole archive.
 *
 * Ours rather than a tar library because the reader must be strict (regular files only: no links, devices or
 * absolute paths can come out of a restore) and both sides are small; everything else (.tar without gzip,
 * GNU headers) is refused or ignored rather than interpreted.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { CodedError } from "#server/errors.server.ts";

const BLOCK = 512;
/** The largest size an ustar header's 11 octal digits hold; bigger files carry a pax `size` record. */
const MAX_OCTAL_SIZE = 0o77777777777;
/** A pax header is a few names and numbers; anything bigger is not ours. */
const MAX_PAX_BYTES = 64 * 1024;
const MAX_NAME_BYTES = 4096;

/** A problem with the archive itself (truncated, corrupted, not a backup): the target has not been touched. */
export class ArchiveError extends CodedError {
  constructor(message: string) {
    super("BACKUP_ARCHIVE_INVALID", message);
  }
}

export type EntryInfo = { name: string; size: number; mtime: Date };

/** What goes into the archive: bytes in memory (small), or a file read while it is written. */
export type EntrySource = { name: string; data: Buffer; mtime?: Date } | { name: string; file: string };

/** What was stored for a file entry: its size and SHA-256 as read, or null when the file vanished meanwhile. */
export type WrittenFile = { name: string; size: number; mtime: Date; sha256: string };

const isPlainAscii = (s: string) => /^[\x20-\x7e]*$/.test(s);

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

function paxRecords(fields: Record<string, string>): Buffer {
  const parts: Buffer[] = [];
  for (const [key, value] of Object.entries(fields)) {
    // "<length> <key>=<value>\n", where the length counts its own digits.
    const body = ` ${key}=${value}\n`;
    let length = Buffer.byteLength(body) + 1;
    while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
    parts.push(Buffer.from(`${length}${body}`, "utf8"));
  }
  return Buffer.concat(parts);
}

function ustarHeader(name: string, size: number, mtime: Date, type: "0" | "x"): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, "utf8");
  h.write(octal(0o644, 8), 100, "ascii");
  h.write(octal(0, 8), 108, "ascii");
  h.write(octal(0, 8), 116, "ascii");
  h.write(octal(size, 12), 124, "ascii");
  h.write(octal(Math.max(0, Math.floor(mtime.getTime() / 1000)), 12), 136, "ascii");
  h.write("        ", 148, "ascii");
  h.write(type, 156, "ascii");
  h.write("ustar\0", 257, "ascii");
  h.write("00", 263, "ascii");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(octal(sum, 7) + " ", 148, "ascii");
  return h;
}

/** The header block(s) of one regular file: a pax header first when the name or size does not fit ustar. */
export function entryHeader(name: string, size: number, mtime: Date): Buffer {
  const pax: Record<string, string> = {};
  let shortName = name;
  if (!isPlainAscii(name) || Buffer.byteLength(name) > 100) {
    pax.path = name;
    // Readers without pax support still get a recognisable, safe name.
    shortName = name.replace(/[^\x20-\x7e]/g, "_").slice(-100);
  }
  if (size > MAX_OCTAL_SIZE) pax.size = String(size);
  const header = ustarHeader(shortName, size > MAX_OCTAL_SIZE ? 0 : size, mtime, "0");
  if (!Object.keys(pax).length) return header;
  const records = paxRecords(pax);
  return Buffer.concat([ustarHeader("PaxHeader", records.length, mtime, "x"), records, padding(records.length), header]);
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/**
 * Writes `entries` as a .tar.gz at `file`. File entries are opened when their turn comes; one that is gone by
 * then is skipped (reported to `onFile` as null) — a live site deletes files while it is backed up. A file
 * that changes length while it is read fails the backup: the archive would hold a torn copy.
 */
export async function writeTarGz(
  file: string,
  entries: AsyncIterable<EntrySource> | Iterable<EntrySource>,
  options: { level?: number; onFile?: (written: WrittenFile | null, source: EntrySource) => void | Promise<void> } = {},
): Promise<void> {
  async function* blocks(): AsyncGenerator<Buffer> {
    for await (const entry of entries) {
      if ("data" in entry) {
        yield entryHeader(entry.name, entry.data.length, entry.mtime ?? new Date());
        yield entry.data;
        yield padding(entry.data.length);
        continue;
      }
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(entry.file, "r");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") {
          await options.onFile?.(null, entry);
          continue;
        }
        throw error;
      }
      try {
        const stat = await handle.stat();
        if (!stat.isFile()) continue;
        yield entryHeader(entry.name, stat.size, stat.mtime);
        const hash = crypto.createHash("sha256");
        let seen = 0;
        if (stat.size > 0) {
          // Bounded by the size read at open: bytes appended meanwhile are left out rather than overrunning the header.
          for await (const chunk of handle.createReadStream({
            start: 0,
            end: stat.size - 1,
            autoClose: false,
            highWaterMark: 256 * 1024,
          }) as AsyncIterable<Buffer>) {
            seen += chunk.length;
            hash.update(chunk);
            yield chunk;
          }
        }
        if (seen !== stat.size) throw new Error(`${entry.file} changed while it was being backed up (${seen} of ${stat.size} bytes read)`);
        yield padding(stat.size);
        await options.onFile?.({ name: entry.name, size: stat.size, mtime: stat.mtime, sha256: hash.digest("hex") }, entry);
      } finally {
        await handle.close();
      }
    }
    // End of archive: two zero blocks.
    yield Buffer.alloc(BLOCK * 2);
  }
  await pipeline(Readable.from(blocks(), { objectMode: false }), zlib.createGzip({ level: options.level ?? 6 }), fs.createWriteStream(file, { flags: "wx" }));
}

/** Pulls exact byte counts out of a stream of chunks of any size. */
class ByteReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private ended = false;
  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async fill(n: number): Promise<void> {
    while (this.buffered < n && !this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else if (next.value.length) {
        this.chunks.push(next.value);
        this.buffered += next.value.length;
      }
    }
  }

  /** Exactly n bytes, or null at a clean end of stream (no byte left); throws when the stream stops midway. */
  async exact(n: number): Promise<Buffer | null> {
    await this.fill(n);
    if (this.buffered === 0 && this.ended) return null;
    if (this.buffered < n) throw new ArchiveError("The backup file is truncated: it ends in the middle of an entry");
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    return out;
  }

  /** The next n bytes as they arrive, in chunks. */
  async *take(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (!this.buffered) await this.fill(1);
      if (!this.buffered) throw new ArchiveError("The backup file is truncated: it ends in the middle of a file");
      const chunk = this.chunks.shift()!;
      if (chunk.length > left) {
        this.chunks.unshift(chunk.subarray(left));
        this.buffered -= left;
        yield chunk.subarray(0, left);
        left = 0;
      } else {
        this.buffered -= chunk.length;
        left -= chunk.length;
        yield chunk;
      }
    }
  }

  async skip(n: number): Promise<void> {
    for await (const _chunk of this.take(n));
  }
}

function field(h: Buffer, offset: number, length: number): string {
  const raw = h.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString("utf8");
}

function parseOctal(h: Buffer, offset: number, length: number, what: string): number {
  const text = field(h, offset, length).trim();
  if (!/^[0-7]*$/.test(text)) throw new ArchiveError(`The backup file is corrupted: a ${what} field is not a number`);
  return text ? parseInt(text, 8) : 0;
}

function checksumOk(h: Buffer): boolean {
  const stored = parseOctal(h, 148, 8, "checksum");
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : h[i];
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  return stored === unsigned || stored === signed;
}

function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const length = space === -1 ? NaN : Number(data.subarray(at, space).toString("ascii"));
    if (!Number.isInteger(length) || length <= 0 || at + length > data.length)
      throw new ArchiveError("The backup file is corrupted: a pax header is malformed");
    const record = data.subarray(space + 1, at + length - 1).toString("utf8");
    const eq = record.indexOf("=");
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    at += length;
  }
  return out;
}

/**
 * The regular files of a tar stream, in order. Each entry's `body` must be read to its end (or left alone:
 * it is then skipped) before the next entry is asked for. Anything but regular files, directories and pax
 * records is refused, so a crafted archive cannot make a restore create links or devices.
 */
export async function* readTar(source: AsyncIterable<Buffer>): AsyncGenerator<EntryInfo & { body: AsyncIterable<Buffer> }> {
  const iterator = source[Symbol.asyncIterator]();
  const reader = new ByteReader(iterator);
  let pax: Record<string, string> = {};
  for (;;) {
    const h = await reader.exact(BLOCK);
    if (!h) throw new ArchiveError("The backup file is truncated: the end-of-archive marker is missing");
    if (h.every((b) => b === 0)) {
      // Read on to the end: gzip checks its CRC and length only there, and padding after the marker is allowed.
      while (!(await iterator.next()).done);
      return;
    }
    if (!checksumOk(h)) throw new ArchiveError("The backup file is corrupted: a tar header's checksum does not match");
    const type = String.fromCharCode(h[156] || 0x30);
    let size = parseOctal(h, 124, 12, "size");
    if (type === "x" || type === "g") {
      if (size > MAX_PAX_BYTES) throw new ArchiveError("The backup file is corrupted: a pax header is too large");
      const data = size ? await reader.exact(size) : Buffer.alloc(0);
      if (!data) throw new ArchiveError("The backup file is truncated: it ends in the middle of an entry");
      await reader.skip((BLOCK - (size % BLOCK)) % BLOCK);
      if (type === "x") pax = parsePax(data);
      continue;
    }
    const prefix = field(h, 345, 155);
    let name = pax.path ?? (prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100));
    if (pax.size !== undefined) {
      if (!/^\d+$/.test(pax.size)) throw new ArchiveError("The backup file is corrupted: a pax size is not a number");
      size = Number(pax.size);
    }
    const mtime = new Date(parseOctal(h, 136, 12, "mtime") * 1000);
    pax = {};
    if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw new ArchiveError("The backup file is corrupted: an entry name is too long");
    name = name.replace(/^\.\//, "");
    if (type === "5") {
      await reader.skip(size + ((BLOCK - (size % BLOCK)) % BLOCK));
      continue;
    }
    if (type !== "0") throw new ArchiveError(`The backup file holds an entry of a kind a backup never has (type '${type}' at ${JSON.stringify(name)})`);
    let consumed = false;
    const body: AsyncIterable<Buffer> = {
      [Symbol.asyncIterator]: () => {
        consumed = true;
        return reader.take(size)[Symbol.asyncIterator]();
      },
    };
    yield { name, size, mtime, body };
    // The consumer either read the body to its end or never touched it.
    if (!consumed) await reader.skip(size);
    await reader.skip((BLOCK - (size % BLOCK)) % BLOCK);
  }
}

/**
 * Runs `consume` over the entries of the archive at `file` (gzip-compressed or plain tar). Truncation and
 * corruption surface as ArchiveError, from the tar structure or from gzip's own length and CRC check.
 */
export async function readArchive(
  file: string,
  consume: (entries: AsyncGenerator<EntryInfo & { body: AsyncIterable<Buffer> }>) => Promise<void>,
): Promise<void> {
  let head: Buffer;
  try {
    const fh = await fs.promises.open(file, "r");
    try {
      head = Buffer.alloc(2);
      await fh.read(head, 0, 2, 0);
    } finally {
      await fh.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ArchiveError(code === "ENOENT" ? `No such backup file: ${file}` : `Cannot read ${file}: ${(error as Error).message}`);
  }
  const gzipped = head[0] === 0x1f && head[1] === 0x8b;
  const steps = (source: AsyncIterable<Buffer>) => consume(readTar(source));
  try {
    if (gzipped) await pipeline(fs.createReadStream(file), zlib.createGunzip(), steps);
    else await pipeline(fs.createReadStream(file), steps);
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "Z_BUF_ERROR" || /unexpected end of file/i.test((error as Error).message)) {
      throw new ArchiveError("The backup file is truncated (the compressed stream ends early)");
    }
    if (typeof code === "string" && code.startsWith("Z_")) throw new ArchiveError(`The backup file is corrupted (${(error as Error).message})`);
    throw error;
  }
}
